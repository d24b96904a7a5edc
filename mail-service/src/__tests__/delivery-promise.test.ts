import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CONTACT_MESSAGES } from '@site/contracts/contact';
import { runOutboxCommand } from '../cli';
import {
  accept,
  getCsrf,
  post,
  ready,
  sleep,
  startPerTest,
  tempDir,
  validMessage,
  waitFor,
} from './helpers';
import { closedPort, type TestSmtp } from './relay';
import { STORE_KINDS, testStore } from './stores';

/**
 * The delivery promise, failure by failure: each test is a way the outbox used to lose, repeat
 * or hide messages, tried against a real relay, a real SQLite file and, for a full disk, a real
 * small filesystem.
 */

const idsOf = (smtp: TestSmtp) => smtp.received.map((r) => r.mail.messageId);

const start = startPerTest();

describe('a full disk while results are recorded', () => {
  const mountPoint = tempDir('small-disk');
  beforeAll(() => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]);
  });
  afterAll(() => {
    execFileSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  test('each message is sent once; delivery waits, readiness is red until the disk has room', async () => {
    const port = await closedPort();
    const h = start.harness(
      { SMTP_URL: `smtp://127.0.0.1:${port}`, RETRY_BASE_MS: '100', RETRY_MAX_MS: '200' },
      { dataDir: path.join(mountPoint, 'data') },
    );
    const ids = [await accept(h), await accept(h), await accept(h)];
    await waitFor(async () => (await ready(h)).delivery.working === false);

    // Empty the write-ahead log first, so that the next write has to grow it on the full disk.
    const db = new DatabaseSync(path.join(h.config.DATA_DIR, 'outbox.sqlite'));
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    // Fill the disk to the last byte.
    const filler = path.join(mountPoint, 'filler');
    const chunk = Buffer.alloc(64 * 1024);
    mkdirSync(mountPoint, { recursive: true });
    writeFileSync(filler, '');
    for (;;) {
      try {
        writeFileSync(filler, chunk, { flag: 'a' });
      } catch {
        break;
      }
    }
    for (let i = 0; i < 64; i++) {
      try {
        writeFileSync(filler, Buffer.alloc(512), { flag: 'a' });
      } catch {
        break;
      }
    }

    const smtp = await start.relay(port);
    await waitFor(() => smtp.received.length >= 1, { what: 'a delivery' });
    const halted = await waitFor(async () => {
      const r = await ready(h);
      return r.delivery.recording === false && r;
    });
    expect(halted.code).toBe(503);
    expect(halted.problems).toContain('results_not_recorded');
    await sleep(1500);
    // Nothing is sent again while the result cannot be written, and nothing new is started.
    expect(new Set(idsOf(smtp)).size).toBe(smtp.received.length);
    expect(smtp.received.length).toBeLessThanOrEqual(h.config.SMTP_CONNECTIONS);

    rmSync(filler);
    const recovered = await waitFor(
      async () => {
        const r = await ready(h);
        return r.code === 200 && r.messages.delivered === 3 && r;
      },
      { what: 'recovery after freeing the disk' },
    );
    expect(recovered.messages.queued).toBe(0);
    expect(idsOf(smtp).sort()).toEqual(ids.map((id) => `<${id}@highveld-digital.co.za>`).sort());
  });
});

describe.each(STORE_KINDS)('relay faults and operators (%s outbox)', (kind) => {
  const store = testStore(kind, 3491);
  const start = startPerTest(store);
  /** The outbox command's settings for this harness: its DATA_DIR, or the shared database. */
  const cli = (h: { config: { DATA_DIR: string } }) => ({
    DATA_DIR: h.config.DATA_DIR,
    ...store.env,
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
