/**
 * @jest-environment node
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CONTACT_FIELDS } from '@site/contracts/contact';
import { FORM_COOKIE, SENT_LOCATION } from '../../contact/no-script-form';
import { FORM_STATE_ELEMENT } from '../../../src/pages/contact/form-state';
import { SITE_URL, startFixture, type SiteFixture } from './site-fixture';

/**
 * The contact form without JavaScript, `POST /contact`, as a browser posts it, against the real
 * mail-service: the form's cookie, the origin check, each field's message, the sent state, the
 * mail-service's own limit, and what the visitor is told when it is away.
 */
const RATE_LIMIT = 3;
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture({ mailService: { RATE_LIMIT_MAX: String(RATE_LIMIT) } });
}, 180_000);

afterAll(() => fixture?.close());

const TOKEN = 'a'.repeat(43);
let clients = 0;
/** A client address of its own, so that each test has the mail-service's whole budget. */
const newClient = () => `203.0.113.${++clients}`;

const VALID = {
  fullName: 'Ada Lovelace',
  emailAddress: 'ada@example.com',
  subject: 'A project',
  message: 'We would like to talk about a data platform for our clinics.',
};

/** What a browser says when it loads a page into a tab, a form's post included (Fetch Metadata). */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

function post(
  fields: Record<string, string>,
  {
    headers = { origin: SITE_URL, cookie: `${FORM_COOKIE}=${TOKEN}` },
    client = newClient(),
  }: { headers?: Record<string, string>; client?: string } = {},
) {
  return fixture.inject({
    method: 'POST',
    url: '/contact',
    remoteAddress: client,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...NAVIGATION, ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The form's state as the page hands it to the form's code. */
function stateOf(html: string): Record<string, unknown> {
  const json = new RegExp(
    `<script type="application/json" id="${FORM_STATE_ELEMENT}">([\\s\\S]*?)</script>`,
  ).exec(html)?.[1];
  if (json === undefined) throw new Error('the page holds no form state');
  return JSON.parse(json) as Record<string, unknown>;
}

const messageOf = (field: string, kind: 'required' | 'tooLong') =>
  CONTACT_FIELDS.find((f) => f.name === field)!.messages[kind];

describe('GET /contact', () => {
  test('sets the form cookie: HttpOnly, SameSite=Strict, on /contact alone, for a week', async () => {
    const answer = await fixture.inject({ url: '/contact', headers: NAVIGATION });
    expect(answer.statusCode).toBe(200);
    // Its own copy of the page, with its own token.
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(String(answer.headers['set-cookie'])).toMatch(
      new RegExp(
        `^${FORM_COOKIE}=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=/contact; HttpOnly; SameSite=Strict$`,
      ),
    );
  });

  test('a valid cookie is kept and renewed; one that is not a token is replaced', async () => {
    const kept = await fixture.inject({
      url: '/contact',
      headers: { cookie: `${FORM_COOKIE}=${TOKEN}`, ...NAVIGATION },
    });
    expect(String(kept.headers['set-cookie'])).toMatch(new RegExp(`^${FORM_COOKIE}=${TOKEN};`));
    const bad = await fixture.inject({
      url: '/contact',
      headers: { cookie: `${FORM_COOKIE}=short`, ...NAVIGATION },
    });
    expect(String(bad.headers['set-cookie'])).not.toMatch(new RegExp(`^${FORM_COOKIE}=short;`));
  });

  test("a page a script fetches or a frame shows gets neither the form's cookie nor the page's token", async () => {
    for (const asked of [
      { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      {},
    ]) {
      const answer = await fixture.inject({ url: '/contact', headers: asked });
      expect([asked, answer.statusCode, answer.headers['set-cookie']]).toEqual([
        asked,
        200,
        undefined,
      ]);
      expect(answer.body).not.toContain('site-contact-token');
    }
  });

  test('?sent=1 is the sent state, for this answer alone, holding nothing of a message', async () => {
    const answer = await fixture.inject(SENT_LOCATION.replace(/#.*$/, ''));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(stateOf(answer.body)).toEqual({ sent: true });
  });
});

describe('POST /contact', () => {
  test('a valid form from the site, with its cookie, is handed to the mail-service: 303 to the sent state', async () => {
    const answer = await post({ ...VALID, subject: 'Delivered through the site' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(SENT_LOCATION);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  test('the message reaches the mailbox', async () => {
    const subject = `Mailbox check ${Date.now()}`;
    expect((await post({ ...VALID, subject })).statusCode).toBe(303);
    const mailbox = fixture.mail!.mailbox;
    const deadline = Date.now() + 20_000;
    const delivered = () =>
      existsSync(mailbox) &&
      readdirSync(mailbox).some((f) =>
        readFileSync(path.join(mailbox, f), 'utf8').includes(subject),
      );
    while (!delivered()) {
      if (Date.now() > deadline) throw new Error('the message never reached the mailbox');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);

  test('Sec-Fetch-Site: same-origin stands in for a missing Origin', async () => {
    const answer = await post(VALID, {
      headers: { 'sec-fetch-site': 'same-origin', cookie: `${FORM_COOKIE}=${TOKEN}` },
    });
    expect(answer.statusCode).toBe(303);
  });

  test.each([
    ['another origin', { origin: 'https://evil.example', cookie: `${FORM_COOKIE}=${TOKEN}` }],
    [
      'no Origin and a cross-site fetch',
      { 'sec-fetch-site': 'cross-site', cookie: `${FORM_COOKIE}=${TOKEN}` },
    ],
    ['neither Origin nor Sec-Fetch-Site', { cookie: `${FORM_COOKIE}=${TOKEN}` }],
    [
      "a script's fetch from the site's own page",
      {
        origin: SITE_URL,
        cookie: `${FORM_COOKIE}=${TOKEN}`,
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
      },
    ],
    [
      'a frame of the site',
      {
        origin: SITE_URL,
        cookie: `${FORM_COOKIE}=${TOKEN}`,
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'iframe',
      },
    ],
  ])('a post with %s is refused: 403, nothing it typed shown back', async (_what, headers) => {
    const answer = await post({ ...VALID, fullName: 'Typed by another site' }, { headers });
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(stateOf(answer.body)).toEqual({ notice: { kind: 'refused' } });
    expect(answer.body).not.toContain('Typed by another site');
  });

  test("an empty form is 422 with each field's message, not to be stored", async () => {
    const answer = await post({});
    expect(answer.statusCode).toBe(422);
    expect(answer.headers['cache-control']).toBe('no-store');
    const state = stateOf(answer.body) as { errors: Record<string, string>; notice: unknown };
    expect(state.notice).toEqual({ kind: 'invalid' });
    for (const field of CONTACT_FIELDS) {
      expect(state.errors[field.name]).toBe(messageOf(field.name, 'required'));
    }
  });

  test('what was typed is kept, and markup typed into it never reaches the page as markup', async () => {
    const typed = '<script>alert(1)</script></textarea>"';
    const answer = await post({ ...VALID, fullName: typed, emailAddress: 'not an address' });
    expect(answer.statusCode).toBe(422);
    const state = stateOf(answer.body) as {
      values: Record<string, string>;
      errors: Record<string, string>;
    };
    expect(state.values.fullName).toBe(typed);
    expect(Object.keys(state.errors)).toEqual(['emailAddress']);
    expect(answer.body).not.toContain('<script>alert(1)');
  });

  test('a field over its limit is refused with its own message', async () => {
    const answer = await post({ ...VALID, subject: 's'.repeat(1000) });
    expect(answer.statusCode).toBe(422);
    expect((stateOf(answer.body) as { errors: Record<string, string> }).errors.subject).toBe(
      messageOf('subject', 'tooLong'),
    );
  });

  test('a valid form without the cookie is 422 asking to send again, with what was typed and a cookie', async () => {
    const answer = await post(VALID, { headers: { origin: SITE_URL } });
    expect(answer.statusCode).toBe(422);
    expect(stateOf(answer.body)).toMatchObject({ values: VALID, notice: { kind: 'send-again' } });
    expect(String(answer.headers['set-cookie'])).toMatch(new RegExp(`^${FORM_COOKIE}=`));
  });

  test('JSON, or any body that is not a form, is a 415', async () => {
    const answer = await fixture.inject({
      method: 'POST',
      url: '/contact',
      headers: { origin: SITE_URL, 'content-type': 'application/json' },
      payload: JSON.stringify(VALID),
    });
    expect(answer.statusCode).toBe(415);
  });

  test('a body over 64 KB is a 413', async () => {
    const answer = await post({ ...VALID, message: 'm'.repeat(70 * 1024) });
    expect(answer.statusCode).toBe(413);
  });

  test(`past the mail-service's limit (${RATE_LIMIT} a window), the visitor is told when to try again, and keeps the input`, async () => {
    const client = newClient();
    for (let i = 0; i < RATE_LIMIT; i++) {
      expect((await post({ ...VALID, subject: `Limit ${i}` }, { client })).statusCode).toBe(303);
    }
    const answer = await post({ ...VALID, subject: 'One too many' }, { client });
    expect(answer.statusCode).toBe(429);
    const seconds = Number(answer.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(stateOf(answer.body)).toMatchObject({
      values: { subject: 'One too many' },
      notice: { kind: 'rate-limited', retryAfterSeconds: seconds },
    });
    // Another visitor is not held back.
    expect((await post({ ...VALID, subject: 'Someone else' })).statusCode).toBe(303);
  });

  test('the same form sent twice (a double click) is answered as sent both times', async () => {
    const client = newClient();
    const form = { ...VALID, subject: 'Sent twice' };
    expect((await post(form, { client })).statusCode).toBe(303);
    expect((await post(form, { client })).statusCode).toBe(303);
  });

  test('with the mail-service away, the visitor is told it was not sent (503, Retry-After) and keeps the input', async () => {
    const child = fixture.mail!.child;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const answer = await post({ ...VALID, subject: 'While away' });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('30');
    expect(stateOf(answer.body)).toMatchObject({
      values: { subject: 'While away' },
      notice: { kind: 'failed', server: true },
    });
  });
});
