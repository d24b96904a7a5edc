/**
 * @jest-environment node
 */
import { SITE_URL, startFixture, type SiteFixture } from './site-fixture';

/**
 * `/api/*` on the site's own origin, forwarded to the real mail-service: its answers pass through
 * as it gives them, the client it counts is the one this server saw (never a header the client
 * wrote), and when it is away the client gets a 503 it can read.
 */
const RATE_LIMIT = 2;
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture({ mailService: { RATE_LIMIT_MAX: String(RATE_LIMIT) } });
}, 180_000);

afterAll(() => fixture?.close());

const MESSAGE = {
  user: { name: 'Grace Hopper', email: 'grace@example.com' },
  message: { subject: 'Through the site', body: 'A message sent to the API through the site.' },
};

/** A CSRF pair from the mail-service, fetched through the site as the form's code does. */
async function csrf(remoteAddress: string): Promise<string> {
  const answer = await fixture.inject({ url: '/api/csrf', remoteAddress });
  return answer.json<{ token: string }>().token;
}

/** What a browser says when it loads a page into a tab (Fetch Metadata). */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

/** The token in a contact page's document, when the page holds one. */
const tokenIn = (html: string): string | undefined => {
  const found =
    /<script type="application\/json" id="site-contact-token">("[^"<]*")<\/script>/.exec(html);
  return found ? (JSON.parse(found[1]!) as string) : undefined;
};

/** The contact page's token, as the page loaded into a tab holds it. */
async function contactToken(): Promise<string> {
  const page = await fixture.inject({ url: '/contact', headers: NAVIGATION });
  const token = tokenIn(page.body);
  if (!token) throw new Error('the contact page holds no token');
  return token;
}

async function sendmail(remoteAddress: string, headers: Record<string, string> = {}) {
  const token = await csrf(remoteAddress);
  const own = await contactToken();
  return fixture.inject({
    method: 'POST',
    url: '/api/sendmail',
    remoteAddress,
    headers: {
      'content-type': 'application/json',
      origin: SITE_URL,
      cookie: `XSRF-TOKEN=${token}`,
      'x-xsrf-token': token,
      'x-contact-token': own,
      ...headers,
    },
    payload: JSON.stringify(MESSAGE),
  });
}

test("GET /api/csrf is the mail-service's answer: its cookie for the page to echo, and the token", async () => {
  const answer = await fixture.inject('/api/csrf');
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const { token } = answer.json<{ token: string }>();
  expect(String(answer.headers['set-cookie'])).toMatch(
    new RegExp(`^XSRF-TOKEN=${token}; Path=/; SameSite=Strict$`),
  );
});

test("a message posted as the form's code posts it is taken: 202 with its id", async () => {
  const answer = await sendmail('192.0.2.1');
  expect(answer.statusCode).toBe(202);
  expect(answer.json<{ messageId: string }>().messageId).toMatch(/\S/);
});

test("code on another page of the site cannot send as the visitor: without the contact page's own token, the site's 403", async () => {
  // A script's fetch of the contact page, and a frame of it, get the page without a token.
  for (const asked of [
    { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-purpose': 'prefetch' },
  ]) {
    const page = await fixture.inject({ url: '/contact', headers: asked });
    expect([asked, page.statusCode, tokenIn(page.body)]).toEqual([asked, 200, undefined]);
  }
  const forged = `${Date.now() + 60_000}.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA`;
  for (const own of [{}, { 'x-contact-token': forged }, { 'x-contact-token': '' }]) {
    const answer = await sendmail('192.0.2.9', { 'x-contact-token': '', ...own });
    expect([own, answer.statusCode, answer.json<{ error: string }>().error]).toEqual([
      own,
      403,
      'contact_token',
    ]);
  }
  // Any spelling of the path that the mail-service would take as the message's.
  for (const url of ['/api/SendMail', '/api/sendmail/', '/api/sendmail?x=1']) {
    const csrfToken = await csrf('192.0.2.9');
    const answer = await fixture.inject({
      method: 'POST',
      url,
      remoteAddress: '192.0.2.9',
      headers: {
        'content-type': 'application/json',
        origin: SITE_URL,
        cookie: `XSRF-TOKEN=${csrfToken}`,
        'x-xsrf-token': csrfToken,
      },
      payload: JSON.stringify(MESSAGE),
    });
    expect([url, answer.statusCode]).toEqual([url, 403]);
  }
});

test("the mail-service's refusals reach the client as it gave them: no CSRF pair is a 403", async () => {
  const answer = await fixture.inject({
    method: 'POST',
    url: '/api/sendmail',
    headers: {
      'content-type': 'application/json',
      origin: SITE_URL,
      'x-contact-token': await contactToken(),
    },
    payload: JSON.stringify(MESSAGE),
  });
  expect(answer.statusCode).toBe(403);
  expect(answer.json<{ error: string }>().error).toMatch(/csrf/i);
});

test('a path the mail-service does not have, and a method it does not take, are its 404 and 405', async () => {
  const missing = await fixture.inject('/api/no-such-thing');
  expect(missing.statusCode).toBe(404);
  expect(missing.headers['content-type']).toMatch(/^application\/json/);
  const method = await fixture.inject({ method: 'GET', url: '/api/sendmail' });
  expect(method.statusCode).toBe(405);
  expect(method.headers.allow).toBe('POST');
});

test('the query is forwarded as it was sent', async () => {
  const answer = await fixture.inject('/api/health?probe=1');
  expect(answer.statusCode).toBe(200);
});

test('/apix and /api-docs are not the API: the 404 page of the site', async () => {
  for (const url of ['/apix', '/api-docs']) {
    const answer = await fixture.inject(url);
    expect([url, answer.statusCode]).toEqual([url, 404]);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  }
});

test('a query that does not decode is refused by the site, before the mail-service sees it', async () => {
  const answer = await fixture.inject('/api/health?x=%E0%A4%A');
  expect(answer.statusCode).toBe(400);
  expect(answer.body).toBe('The request target is not valid percent-encoding.\n');
});

test('the client the mail-service counts is the address the site saw, whatever X-Forwarded-For a client writes', async () => {
  const client = '192.0.2.50';
  const statuses: number[] = [];
  for (let i = 0; i <= RATE_LIMIT; i++) {
    statuses.push(
      (await sendmail(client, { 'x-forwarded-for': `198.51.100.${i + 1}` })).statusCode,
    );
  }
  expect(statuses).toEqual([...Array<number>(RATE_LIMIT).fill(202), 429]);
  expect((await sendmail('192.0.2.51')).statusCode).toBe(202);
});

test('with the mail-service away: 503 in JSON, with Retry-After, not to be stored', async () => {
  const child = fixture.mail!.child;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const answer = await fixture.inject('/api/csrf');
  expect(answer.statusCode).toBe(503);
  expect(answer.headers['retry-after']).toBe('30');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.json()).toEqual({
    error: 'service_unavailable',
    message: 'The message service is not reachable right now.',
  });
  // The site itself carries on.
  expect((await fixture.inject('/contact')).statusCode).toBe(200);
});
