import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { FORM_STARTED_TOKEN_FIELD } from '../form-token';
import { getCsrf, post, startPerTest, validMessage, waitFor, type Harness } from './helpers';

/**
 * Spam decisions keep their reasons, an operator lists and releases them, and a person's export
 * and erasure requests are served, through the API and the outbox command as an operator runs it.
 */

const run = promisify(execFile);
/** Each test runs the outbox command a few times: a process of its own, seconds on a busy machine. */
const CLI_TEST_MS = 90_000;

describe('spam reasons and personal data', () => {
  const start = startPerTest();

  /** `npm run outbox -w mail-service -- <args>` against the harness's outbox. */
  const outboxCommand = async (h: Harness, args: string[]) =>
    (
      await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
        cwd: path.join(__dirname, '..', '..'),
        env: {
          ...process.env,
          DATABASE_URL: h.config.DATABASE_URL,
          DATA_DIR: h.config.DATA_DIR,
          MAILBOX_DIR: h.config.MAILBOX_DIR,
        },
        encoding: 'utf8',
      })
    ).stdout;
  const jsonLines = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  const formToken = async (h: Harness) => {
    const res = await request(h.app).get('/api/form-token').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { token } = res.body as { token: string };
    expect(typeof token).toBe('string');
    return token;
  };

  const postMessage = async (h: Harness, body: unknown) => {
    const res = await post(h.app, await getCsrf(h.app), body).expect(202);
    return (res.body as { messageId: string }).messageId;
  };

  const reasonsOf = async (h: Harness, id: string) => {
    const [row] = await h.outbox.list({ ids: [id] });
    return { status: row?.status, reasons: row?.spamReasons };
  };

  test(
    'a message sent 0.5 s after the form was first used is delivered with that signal kept; a held one is listed by the operator, released and delivered',
    async () => {
      const smtp = await start.relay();
      // The service's clock stands still while the message is posted, 0.5 s after the token's
      // time: a busy machine's slow request cannot make it older.
      let frozen: number | undefined;
      // The worker is left at its one-minute poll, so a release delivered in seconds was woken
      // by the database's notification.
      const h = start.harness({ SMTP_URL: smtp.url }, { now: () => frozen ?? Date.now() });
      const csrf = await getCsrf(h.app);
      const token = await formToken(h);
      frozen = parseInt(token.split('.')[0]!, 36) + 500;
      const fast = await post(h.app, csrf, {
        ...validMessage(),
        message: { subject: 'Quick one', body: 'Typed by a very fast visitor.' },
        [FORM_STARTED_TOKEN_FIELD]: token,
      }).expect(202);
      frozen = undefined;
      const fastId = (fast.body as { messageId: string }).messageId;
      await waitFor(async () => (await h.outbox.statusOf(fastId))?.status === 'delivered', {
        what: 'the fast message to be delivered',
      });
      expect((await reasonsOf(h, fastId)).reasons).toEqual([
        'submitted 0.5 s after the form was first used',
      ]);

      const subject = `Held one ${randomUUID()}`;
      const id = await postMessage(h, {
        ...validMessage(),
        website: 'filled in',
        message: { subject, body: 'Typed by a very fast visitor.' },
      });
      const stored = await reasonsOf(h, id);
      expect(stored).toEqual({ status: 'spam', reasons: ['honeypot field filled'] });

      const listed = await outboxCommand(h, ['spam']);
      expect(jsonLines(listed)).toEqual([
        {
          id,
          received: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          reasons: stored.reasons,
          domain: 'example.co.za',
        },
      ]);
      // The listing shows no one's name, address or text.
      expect(listed).not.toMatch(/Thandi|thandi@|very fast visitor|Held one/);

      expect(await outboxCommand(h, ['release', id])).toMatch(/^1 message\(s\) released from spam/);
      await waitFor(async () => (await h.outbox.statusOf(id))?.status === 'delivered', {
        what: 'the released message to be delivered',
      });
      expect(smtp.received.map((r) => r.mail.subject)).toEqual([
        'Website enquiry: Quick one',
        `Website enquiry: ${subject}`,
      ]);
      // The release is recorded: the reasons stay, with the time of the release.
      const line = jsonLines(await outboxCommand(h, ['list', 'delivered'])).find(
        (l) => l.id === id,
      );
      expect(line).toMatchObject({
        id,
        status: 'delivered',
        spamReasons: stored.reasons,
        released: expect.stringMatching(/^\d{4}-/),
      });
      expect(await outboxCommand(h, ['spam'])).toBe('');
    },
    CLI_TEST_MS,
  );

  test(
    'reasons: honeypot, forged and garbled tokens hold a message; too many links alone is a kept signal, not a hold; a slow, absent or day-old token is no reason',
    async () => {
      let offset = 0;
      const h = start.harness({ RATE_LIMIT_MAX: '100' }, { now: () => Date.now() + offset });
      const message = (extra: object = {}) => ({ ...validMessage(), ...extra });

      const honeypot = await postMessage(h, message({ website: 'https://spam.example' }));
      expect(await reasonsOf(h, honeypot)).toEqual({
        status: 'spam',
        reasons: ['honeypot field filled'],
      });

      const token = await formToken(h);
      const [stamp] = token.split('.');
      const forgeries = [
        'not-a-token',
        // An earlier time with the signature of another: what a bot would try.
        `${(parseInt(stamp!, 36) - 60_000).toString(36)}.${token.split('.')[1]}`,
        `${stamp}.${'A'.repeat(43)}`,
      ];
      for (const forged of forgeries) {
        const id = await postMessage(h, message({ [FORM_STARTED_TOKEN_FIELD]: forged }));
        expect(await reasonsOf(h, id)).toEqual({ status: 'spam', reasons: ['form token invalid'] });
      }

      const links = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' ');
      const linky = await postMessage(
        h,
        message({ message: { subject: 'Links', body: `See ${links}` } }),
      );
      expect(await reasonsOf(h, linky)).toEqual({
        status: expect.stringMatching(/^(queued|delivered)$/),
        reasons: ['6 links in the message (more than 5)'],
      });
      const both = await postMessage(
        h,
        message({ website: 'x', message: { subject: 'Links', body: `See ${links}` } }),
      );
      expect((await reasonsOf(h, both)).reasons).toEqual([
        'honeypot field filled',
        '6 links in the message (more than 5)',
      ]);

      // No token (a form without JavaScript, or the site posting for one), a token older than the
      // threshold, and one older than a day: none of them is spam.
      const noToken = await postMessage(h, message());
      offset = 3_500;
      const slow = await postMessage(h, message({ [FORM_STARTED_TOKEN_FIELD]: token }));
      offset = 25 * 3_600_000;
      const stale = await postMessage(h, message({ [FORM_STARTED_TOKEN_FIELD]: token }));
      for (const id of [noToken, slow, stale]) {
        expect((await reasonsOf(h, id)).reasons).toEqual([]);
        expect((await reasonsOf(h, id)).status).not.toBe('spam');
      }

      // A token that is not a string of at most 200 characters is a field error, like any other.
      const csrf = await getCsrf(h.app);
      for (const bad of [42, 'x'.repeat(201), { token }]) {
        const res = await post(h.app, csrf, message({ [FORM_STARTED_TOKEN_FIELD]: bad })).expect(
          400,
        );
        expect(res.body).toMatchObject({
          error: 'invalid_message',
          fields: [
            { path: FORM_STARTED_TOKEN_FIELD, message: expect.stringMatching(/at most 200/) },
          ],
        });
      }
      // Any other unknown key is still refused by the shared schema.
      await post(h.app, csrf, message({ formStartedAt: 1 })).expect(400);
    },
    CLI_TEST_MS,
  );

  test(
    'a token issued by one instance is good at another on the same database; not at one with another secret',
    async () => {
      let offset = 0;
      const a = start.harness({}, { now: () => Date.now() + offset });
      const b = start.harness({}, { now: () => Date.now() + offset });
      const token = await formToken(a);
      offset = 5_000;
      const id = await postMessage(b, { ...validMessage(), [FORM_STARTED_TOKEN_FIELD]: token });
      expect((await reasonsOf(b, id)).reasons).toEqual([]);
      // An instance given a secret of its own does not take the others' tokens.
      const c = start.harness(
        { FORM_TOKEN_SECRET: 'f'.repeat(16) + 'e'.repeat(16) },
        { now: () => Date.now() + offset },
      );
      const other = await postMessage(c, { ...validMessage(), [FORM_STARTED_TOKEN_FIELD]: token });
      expect((await reasonsOf(c, other)).reasons).toEqual(['form token invalid']);
    },
    CLI_TEST_MS,
  );

  test(
    'export prints the messages of that address only, whatever its case',
    async () => {
      const h = start.harness();
      const from = (email: string, subject: string) => ({
        user: { name: 'Lerato Dlamini', email },
        message: { subject, body: `Body of ${subject}` },
      });
      const first = await postMessage(h, from('Lerato@Example.org', 'First'));
      const spam = await postMessage(h, { ...from('lerato@example.org', 'Second'), website: 'x' });
      await postMessage(h, from('someone.else@example.org', 'Not hers'));

      const exported = JSON.parse(
        await outboxCommand(h, ['export', '--email', 'LERATO@example.ORG']),
      ) as { id: string; email: string; subject: string; body: string; spamReasons?: string[] }[];
      expect(exported.map((m) => m.id).sort()).toEqual([first, spam].sort());
      expect(exported.map((m) => m.subject).sort()).toEqual(['First', 'Second']);
      expect(exported.find((m) => m.id === spam)).toMatchObject({
        email: 'lerato@example.org',
        body: 'Body of Second',
        spamReasons: ['honeypot field filled'],
      });
      expect(
        JSON.parse(await outboxCommand(h, ['export', '--email', 'nobody@example.org'])),
      ).toEqual([]);
    },
    CLI_TEST_MS,
  );

  test(
    'erase: neither the address nor the text can be found in any file afterwards; export is empty; the audit holds no address',
    async () => {
      const smtp = await start.relay();
      const h = start.harness({ SMTP_URL: smtp.url, RATE_LIMIT_MAX: '100' }, { pollMs: 50 });
      const unique = randomUUID().slice(0, 8);
      const address = `erase-me-${unique}@example.net`;
      const phrase = `violet-harbour-${unique}`;
      const other = `keep-me-${unique}@example.net`;
      const from = (email: string, extra: object = {}) => ({
        user: { name: 'Sipho Mokoena', email },
        message: { subject: `Quote ${phrase}`, body: `Please call me about ${phrase}.` },
        ...extra,
      });

      // One delivered (sent with an Idempotency-Key), one spam, one waiting in the queue.
      const csrf = await getCsrf(h.app);
      const delivered = (
        await post(h.app, csrf, from(address.toUpperCase()), { 'Idempotency-Key': 'k-1' }).expect(
          202,
        )
      ).body.messageId as string;
      await waitFor(async () => (await h.outbox.statusOf(delivered))?.status === 'delivered', {
        what: 'the first message to be delivered',
      });
      await postMessage(h, from(address, { website: 'x' }));
      smtp.reply = () => ({ code: 451, message: '4.3.0 Try again later' });
      const queued = await postMessage(h, from(address));
      const kept = await postMessage(h, { ...validMessage(), user: { name: 'K', email: other } });
      await waitFor(async () => ((await h.outbox.statusOf(queued))?.attempts ?? 0) > 0, {
        what: 'a refused attempt',
      });
      expect((await h.outbox.statusOf(queued))?.status).toBe('queued');

      const out = await outboxCommand(h, ['erase', '--email', address]);
      expect(out).toMatch(
        /^3 message\(s\) and 0 mailbox file\(s\) erased; recorded as [0-9a-f]{16}/,
      );
      expect(out).not.toContain(address);

      expect(JSON.parse(await outboxCommand(h, ['export', '--email', address]))).toEqual([]);
      expect((await h.outbox.counts()).spam).toBe(0);
      // The other person's message is untouched.
      expect((await h.outbox.statusOf(kept))?.status).toBe('queued');

      const audit = jsonLines(await outboxCommand(h, ['erasures']));
      expect(audit).toEqual([
        {
          at: expect.stringMatching(/^\d{4}-/),
          addressHmac: expect.stringMatching(/^[0-9a-f]{64}$/),
          messages: 3,
          files: 0,
        },
      ]);
      expect(JSON.stringify(audit)).not.toContain(unique);

      const client = new Client({ connectionString: h.config.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>(
          `SELECT (SELECT COUNT(*) FROM mail_messages WHERE payload ILIKE $1 OR payload ILIKE $2)
              + (SELECT COUNT(*) FROM mail_erasures WHERE address_hmac ILIKE $1)::integer AS n`,
          [`%${address}%`, `%${phrase}%`],
        );
        expect(Number(rows[0]!.n)).toBe(0);
        const vacuumed = await client.query<{ at: Date | null }>(
          "SELECT last_vacuum AS at FROM pg_stat_user_tables WHERE relname = 'mail_messages'",
        );
        expect(vacuumed.rows[0]!.at).not.toBeNull();
      } finally {
        await client.end();
      }

      // The running service carries on: a new message is stored and delivered.
      smtp.reply = () => undefined;
      const after = await postMessage(h, validMessage());
      await waitFor(async () => (await h.outbox.statusOf(after))?.status === 'delivered', {
        what: 'a message after the erase to be delivered',
      });
    },
    CLI_TEST_MS,
  );

  test(
    'bad requests: a wrong method on /api/form-token, commands without an address or ids',
    async () => {
      const h = start.harness();
      const csrf = await getCsrf(h.app);
      const wrong = await request(h.app)
        .post('/api/form-token')
        .set('Origin', 'http://localhost:3000')
        .set('Cookie', csrf.cookie)
        .set('X-XSRF-TOKEN', csrf.token)
        .expect(405);
      expect(wrong.headers.allow).toBe('GET');
      const failed = (args: string[]) =>
        outboxCommand(h, args).then(
          () => undefined,
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
        );
      expect(await failed(['erase'])).toEqual({
        code: 2,
        stderr: expect.stringMatching(/^outbox: erase needs --email <address>/),
      });
      expect(await failed(['export', '--email', 'not-an-address'])).toEqual({
        code: 2,
        stderr: expect.stringMatching(/^outbox: "not-an-address" is not an e-mail address/),
      });
      expect(await failed(['release'])).toMatchObject({ code: 2 });
      // An id that is not spam is said so, exit 1.
      expect(await failed(['release', 'no-such-id'])).toMatchObject({ code: 1 });
    },
    CLI_TEST_MS,
  );

  test(
    'erase removes the .eml files of the mailbox folder too, and the byte search would have found them',
    async () => {
      const h = start.harness({}, { pollMs: 50 });
      const unique = randomUUID().slice(0, 8);
      const address = `mailbox-${unique}@example.net`;
      const phrase = `amber-lantern-${unique}`;
      const id = await postMessage(h, {
        user: { name: 'Naledi', email: address },
        message: { subject: 'Hello', body: `About ${phrase}` },
      });
      await waitFor(async () => (await h.outbox.statusOf(id))?.status === 'delivered', {
        what: 'the .eml file',
      });
      // The search finds what is there before the erase.
      expect(filesContaining(h.dir, [address]).length).toBeGreaterThan(0);
      expect(await outboxCommand(h, ['erase', '--email', address])).toMatch(
        /^1 message\(s\) and 1 mailbox file\(s\) erased/,
      );
      expect(filesContaining(h.dir, [address, phrase])).toEqual([]);
    },
    CLI_TEST_MS,
  );
});

/** The files under `dir` (recursively) whose bytes hold any of `needles`, ignoring ASCII case. */
function filesContaining(dir: string, needles: string[]): string[] {
  const out: string[] = [];
  const lower = needles.map((n) => Buffer.from(n.toLowerCase()));
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) walk(file);
      else {
        const bytes = Buffer.from(readFileSync(file).toString('latin1').toLowerCase(), 'latin1');
        if (lower.some((n) => bytes.includes(n))) out.push(file);
      }
    }
  };
  walk(dir);
  return out;
}
