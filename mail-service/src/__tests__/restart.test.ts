import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { getCsrf, post, tempDir, validMessage, waitFor } from './helpers';
import { TestSmtp, closedPort } from './relay';
import { testStore, type TestStore } from './stores';
import { spawnServer, startService, type ServiceProcess } from './service-process';

/**
 * For one describe block: the database of `store` and a mailbox folder (`env`), and the services
 * and the relay its test starts, all stopped and removed after it.
 */
function serviceRuns(prefix: string, store: TestStore) {
  const dir = tempDir(prefix);
  const children: ChildProcess[] = [];
  let smtp: TestSmtp | undefined;
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** The database, the mailbox folder, and a DATA_DIR with no earlier outbox in it. */
    get env(): Record<string, string> {
      return {
        DATA_DIR: path.join(dir, 'data'),
        MAILBOX_DIR: path.join(dir, 'mailbox'),
        ...store.env,
      };
    },
    async start(env: Record<string, string>): Promise<ServiceProcess> {
      const service = await startService(env);
      children.push(service.child);
      return service;
    },
    async relay(): Promise<TestSmtp> {
      smtp = await TestSmtp.start();
      return smtp;
    },
  };
}

/** POSTs a message to a started service the way the site's form does; resolves with its id. */
async function send(url: string, body: unknown = validMessage()): Promise<string> {
  const csrf = await getCsrf(url);
  const res = await post(url, csrf, body).expect(202);
  return (res.body as { messageId: string }).messageId;
}

describe('start-up configuration', () => {
  // 78 is EX_CONFIG: npm start stops rather than starting it again with the same settings.
  test('a bad setting is a clear error that names it, and the process exits 78', async () => {
    const child = spawnServer({ RATE_LIMIT_MAX: 'lots', ALLOWED_ORIGINS: 'localhost:3000' });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toMatch(/RATE_LIMIT_MAX: expected a whole number from 1 to \d+, got "lots"/);
    expect(stderr).toMatch(/ALLOWED_ORIGINS: "localhost:3000" is not an origin/);
  });

  test('a database that cannot be reached stops the start with what to check, without its password', async () => {
    const port = await closedPort();
    const child = spawnServer({
      MAIL_SERVICE_PORT: '0',
      DATABASE_URL: `postgres://mail:hunter2@127.0.0.1:${port}/site`,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toContain(`cannot open the outbox in PostgreSQL 127.0.0.1:${port}/site`);
    expect(out).toContain('check DATABASE_URL');
    expect(out).not.toContain('hunter2');
    expect(out).not.toMatch(/listening/);
  });
});

describe('crashes and restarts', () => {
  const store = testStore();

  describe('a crash after 202', () => {
    const run = serviceRuns('restart', store);

    test('SIGKILL after answering 202, start again: the message arrives; SIGTERM stops cleanly', async () => {
      const env = run.env;

      // First run: the relay is unreachable, so the message can only be in the outbox.
      const down = await closedPort();
      const first = await run.start({
        ...env,
        SMTP_URL: `smtp://127.0.0.1:${down}`,
        RETRY_BASE_MS: '60000',
        RETRY_MAX_MS: '60000',
      });
      const messageId = await send(first.url);
      // Let the first run try and fail, so the message waits for a retry a minute away.
      await waitFor(async () => {
        const r = await request(first.url).get('/api/ready');
        return r.status === 503 && r.body.delivery.working === false;
      });

      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

      // Second run, same outbox, working relay: the message is picked up and delivered.
      const smtp = await run.relay();
      const second = await run.start({ ...env, SMTP_URL: smtp.url, RETRY_BASE_MS: '50' });
      const received = await waitFor(() => smtp.received.length === 1 && smtp.received, {
        timeoutMs: 15_000,
        what: 'the message to arrive after the restart',
      });
      expect(received[0]?.mail.messageId).toBe(`<${messageId}@highveld-digital.co.za>`);
      expect(received[0]?.mail.subject).toBe('Website enquiry: A new website');
      expect(second.logs.join('\n')).toMatch(/resuming 1 queued message/);

      const counts = await waitFor(async () => {
        const r = await request(second.url).get('/api/ready');
        return r.status === 200 && r.body.messages.delivered === 1 && r.body.messages;
      });
      expect(counts).toEqual({ queued: 0, delivered: 1, failed: 0, spam: 0 });

      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
      expect(second.logs.join('\n')).toMatch(/stopped/);
      // The logs never carry the visitor's address or words.
      const all = [...first.logs, ...second.logs].join('\n');
      expect(all).not.toContain('thandi@example.co.za');
      expect(all).not.toContain('we would like a quote');
      expect(all).toContain('example.co.za');
    });
  });

  describe('graceful shutdown', () => {
    const run = serviceRuns('shutdown', store);

    test('SIGTERM during a send: the send finishes and is recorded, the process exits 0', async () => {
      const smtp = await run.relay();
      smtp.delayMs = 800;
      const env = { ...run.env, SMTP_URL: smtp.url };
      const service = await run.start(env);
      await send(service.url);
      await waitFor(() => smtp.dataAttempts === 1);

      service.child.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      expect(smtp.received).toHaveLength(1);

      // Started again, it knows the message went out and does not send it twice.
      const again = await run.start(env);
      const r = await request(again.url).get('/api/ready').expect(200);
      expect(r.body.messages).toEqual({ queued: 0, delivered: 1, failed: 0, spam: 0 });
      again.child.kill('SIGTERM');
      await again.exited;
      expect(smtp.received).toHaveLength(1);
    });
  });

  describe('a crash during delivery', () => {
    const run = serviceRuns('crash', store);

    test('SIGKILL with a slow relay after 12 accepted: only the sends in progress are repeated', async () => {
      const smtp = await run.relay();
      smtp.delayMs = 150;
      const env = { ...run.env, SMTP_URL: smtp.url, SMTP_CONNECTIONS: '2', RATE_LIMIT_MAX: '100' };
      const first = await run.start(env);
      for (let i = 0; i < 12; i++) {
        await send(first.url, { ...validMessage(), message: { subject: `m${i}`, body: 'x' } });
      }
      await waitFor(() => smtp.received.length >= 5);
      first.child.kill('SIGKILL');
      await first.exited;

      smtp.delayMs = 0;
      const second = await run.start(env);
      // The dead process's claims pass to the new one when their lease ends.
      await waitFor(
        async () => (await request(second.url).get('/api/ready')).body.messages?.delivered === 12,
        { timeoutMs: 40_000, what: 'all 12 delivered' },
      );
      second.child.kill('SIGTERM');
      await second.exited;
      const ids = smtp.received.map((r) => r.mail.messageId);
      const twice = ids.length - new Set(ids).size;
      expect(new Set(ids).size).toBe(12);
      // At most the messages that were being sent when the process died (one per connection).
      expect(twice).toBeLessThanOrEqual(2);
    }, 60_000);
  });
});
