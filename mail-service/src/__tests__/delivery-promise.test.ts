import { CONTACT_MESSAGES } from '@site/contracts/contact';
import { runOutboxCommand } from '../cli';
import {
  accept,
  getCsrf,
  post,
  ready,
  sleep,
  startPerTest,
  validMessage,
  waitFor,
} from './helpers';
import { closedPort, type TestSmtp } from './relay';

/**
 * The delivery promise, failure by failure: each test is a way the outbox used to lose, repeat
 * or hide messages, tried against a real relay and a real PostgreSQL. (The database going away
 * while results are recorded: cluster.test.ts, which has a server of its own to stop.)
 */

const idsOf = (smtp: TestSmtp) => smtp.received.map((r) => r.mail.messageId);

const start = startPerTest();

describe('relay faults and operators', () => {
  /** The outbox command's settings for this harness: its database (and its empty DATA_DIR). */
  const cli = (h: { config: { DATABASE_URL: string; DATA_DIR: string } }) => ({
    DATABASE_URL: h.config.DATABASE_URL,
    DATA_DIR: h.config.DATA_DIR,
  });

  describe('relay configuration errors are retried, not failed', () => {
    test.each([
      ['530 authentication required at MAIL FROM', 'mail'],
      ['550 relaying denied at RCPT TO', 'rcpt'],
    ])('%s: messages stay queued and arrive once the relay is fixed', async (_what, where) => {
      const smtp = await start.relay();
      let broken = true;
      if (where === 'mail') {
        smtp.mailFromReply = () =>
          broken ? { code: 530, message: '5.7.0 Authentication required' } : undefined;
      } else {
        smtp.rcptReply = () =>
          broken ? { code: 550, message: '5.7.1 Relaying denied' } : undefined;
      }
      const h = start.harness({ SMTP_URL: smtp.url, RETRY_BASE_MS: '50', RETRY_MAX_MS: '100' });
      const id = await accept(h);
      const r = await waitFor(async () => {
        const x = await ready(h);
        return x.delivery.working === false && x;
      });
      await sleep(300);
      expect((await h.outbox.statusOf(id))?.status).toBe('queued');
      expect(r.messages.failed).toBe(0);
      broken = false;
      await waitFor(() => smtp.received.length === 1);
      await waitFor(async () => (await ready(h)).messages.delivered === 1);
      expect(idsOf(smtp)).toEqual([`<${id}@highveld-digital.co.za>`]);
    });
  });

  describe('retry horizon and visible failures', () => {
    test('by default a message is retried for days, with at most an hour between attempts', () => {
      const c = start.harness().config;
      expect(c.QUEUE_LIFETIME).toBeGreaterThanOrEqual(4 * 86_400);
      expect(c.RETRY_MAX_MS).toBeLessThanOrEqual(3_600_000);
    });

    test('after a permanent failure /api/ready stays red until an operator acknowledges it', async () => {
      const smtp = await start.relay();
      smtp.reply = () => ({ code: 550, message: '5.7.1 Message rejected' });
      const h = start.harness({ SMTP_URL: smtp.url }, { pollMs: 50 });
      const id = await accept(h);
      await waitFor(async () => (await ready(h)).messages.failed === 1);
      await sleep(800);
      const red = await ready(h);
      expect(red.code).toBe(503);
      expect(red.problems).toEqual(['failed_messages']);

      const out = await captureStdout(() => runOutboxCommand(['list', 'failed'], cli(h)));
      expect(out).toContain(id);
      expect(out).toContain('550');
      expect(out).not.toContain('thandi@example.co.za');
      await captureStdout(() => runOutboxCommand(['ack', id], cli(h)));
      expect((await ready(h)).code).toBe(200);
    });

    test('undelivered messages older than READY_MAX_QUEUE_AGE turn readiness red', async () => {
      const port = await closedPort();
      const h = start.harness(
        {
          SMTP_URL: `smtp://127.0.0.1:${port}`,
          READY_MAX_QUEUE_AGE: '1',
          RETRY_BASE_MS: '5000',
          RETRY_MAX_MS: '5000',
        },
        { pollMs: 50 },
      );
      await accept(h);
      const r = await waitFor(async () => {
        const x = await ready(h);
        return x.problems.includes('messages_waiting_too_long') && x;
      });
      expect(r.code).toBe(503);
    });
  });

  describe('recipients the relay refuses', () => {
    test('a refused recipient is not marked delivered; the others get it once, and a requeue sends only to the refused one', async () => {
      const smtp = await start.relay();
      let refuse = true;
      smtp.rcptReply = (address) =>
        refuse && address === 'sales@highveld-digital.co.za'
          ? { code: 550, message: '5.1.1 No such user' }
          : undefined;
      const h = start.harness({
        SMTP_URL: smtp.url,
        MAIL_TO: 'hello@highveld-digital.co.za, sales@highveld-digital.co.za',
      });
      const id = await accept(h);
      await waitFor(async () => (await ready(h)).messages.failed === 1);
      expect(smtp.received.map((r) => r.envelope.rcptTo.map((x) => x.address))).toEqual([
        ['hello@highveld-digital.co.za'],
      ]);
      const [row] = await h.outbox.list({ ids: [id] });
      expect(row?.lastError).toMatch(/550.*sales@highveld-digital\.co\.za/);

      refuse = false;
      await captureStdout(() => runOutboxCommand(['requeue', id], cli(h)));
      h.worker.kick();
      await waitFor(async () => (await ready(h)).messages.delivered === 1);
      expect(smtp.received.map((r) => r.envelope.rcptTo.map((x) => x.address))).toEqual([
        ['hello@highveld-digital.co.za'],
        ['sales@highveld-digital.co.za'],
      ]);
    });
  });
});

describe('encoded words and international addresses', () => {
  test('an RFC 2047 encoded word in the subject is refused at the door', async () => {
    const h = start.harness();
    const csrf = await getCsrf(h.app);
    const res = await post(h.app, csrf, {
      ...validMessage(),
      message: { subject: '=?UTF-8?Q?a=0D=0ABcc:_evil@example.com?=', body: 'Hi' },
    }).expect(400);
    expect(res.body.fields).toEqual([
      { path: 'message.subject', message: CONTACT_MESSAGES.encodedWord },
    ]);
  });

  test('an encoded word stored under older rules reaches the inbox as plain text', async () => {
    const smtp = await start.relay();
    const h = start.harness({ SMTP_URL: smtp.url });
    const payload = {
      user: { name: '=?UTF-8?Q?Eve=0D=0ABcc:_x@evil.test?=', email: 'eve@example.com' },
      message: { subject: '=?UTF-8?Q?a=0D=0ABcc:_evil@example.com?=', body: 'Hi' },
    };
    await h.outbox.enqueue({ payload, spamReasons: [], held: false, client: 'legacy' });
    h.worker.kick();
    const { mail } = await waitFor(() => smtp.received[0]);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.subject).toBe('Website enquiry: = ?UTF-8?Q?a=0D=0ABcc:_evil@example.com?=');
  });

  test('an IDN domain is accepted and reaches the relay in ASCII', async () => {
    const smtp = await start.relay();
    const h = start.harness({ SMTP_URL: smtp.url });
    await accept(h, { ...validMessage(), user: { name: 'Jürgen', email: 'user@münchen.de' } });
    const { mail } = await waitFor(() => smtp.received[0]);
    const line = mail.headerLines.find((l) => l.key === 'reply-to')?.line ?? '';
    expect(line).toContain('user@xn--mnchen-3ya.de');
  });

  test('a UTF-8 local part: accepted when the relay offers SMTPUTF8, refused clearly when not', async () => {
    const body = { ...validMessage(), user: { name: 'José', email: 'josé@example.com' } };
    let smtp = await start.relay(0, { smtpUtf8: false });
    let h = start.harness({ SMTP_URL: smtp.url });
    await waitFor(() => h.courier.smtpUtf8() === false);
    const csrf = await getCsrf(h.app);
    const refused = await post(h.app, csrf, body).expect(400);
    expect(refused.body.fields).toEqual([
      { path: 'user.email', message: CONTACT_MESSAGES.emailNeedsAscii },
    ]);
    await h.close();
    await smtp.close();

    smtp = await start.relay(0, { smtpUtf8: true });
    h = start.harness({ SMTP_URL: smtp.url });
    await waitFor(() => h.courier.smtpUtf8() === true);
    await accept(h, body);
    const { mail } = await waitFor(() => smtp.received[0]);
    expect(mail.text).toContain('josé@example.com');
  });
});

async function captureStdout(run: () => Promise<number>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    expect(await run()).toBe(0);
  } finally {
    process.stdout.write = write;
  }
  return out;
}
