import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { SERVICE_DIR } from '../config';
import { ORIGIN, TestSmtp, closedPort, tempDir, validMessage, waitFor } from './helpers';

interface Service {
  child: ChildProcess;
  url: string;
  logs: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node --import tsx src/server.ts`, exactly as `npm start` does, and waits for its port. */
async function startService(env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVICE_DIR,
    env: { ...process.env, MAIL_SERVICE_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    logs.push(...lines);
  });
  child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the service exited:\n${logs.join('\n')}`);
      for (const line of logs) {
        const m = /"port":(\d+).*listening/.exec(line);
        if (m) return Number(m[1]);
      }
      return undefined;
    },
    { timeoutMs: 20_000, what: 'the service to listen' },
  );
  return { child, url: `http://127.0.0.1:${port}`, logs, exited };
}

describe('a crash after 202', () => {
  const dir = tempDir('restart');
  const children: ChildProcess[] = [];
  let smtp: TestSmtp | undefined;

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('SIGKILL after answering 202, start again: the message arrives; SIGTERM stops cleanly', async () => {
    const env = { DATA_DIR: path.join(dir, 'data'), MAILBOX_DIR: path.join(dir, 'mailbox') };

    // First run: the relay is unreachable, so the message can only be in the outbox.
    const down = await closedPort();
    const first = await startService({
      ...env,
      SMTP_URL: `smtp://127.0.0.1:${down}`,
      RETRY_BASE_MS: '60000',
      RETRY_MAX_MS: '60000',
    });
    children.push(first.child);
    const agent = request.agent(first.url);
    const csrf = await agent.get('/api/csrf').expect(200);
    const token = (csrf.body as { token: string }).token;
    const accepted = await agent
      .post('/api/sendmail')
      .set('Origin', ORIGIN)
      .set('X-XSRF-TOKEN', token)
      .set('Cookie', `XSRF-TOKEN=${token}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(validMessage()))
      .expect(202);
    const { messageId } = accepted.body as { messageId: string };
    // Let the first run try and fail, so the message waits for a retry a minute away.
    await waitFor(async () => {
      const r = await request(first.url).get('/api/ready');
      return r.status === 503 && r.body.delivery.working === false;
    });

    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Second run, same outbox, working relay: the message is picked up and delivered.
    smtp = await TestSmtp.start();
    const second = await startService({ ...env, SMTP_URL: smtp.url, RETRY_BASE_MS: '50' });
    children.push(second.child);
    const received = await waitFor(() => smtp?.received.length === 1 && smtp.received, {
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
  const dir = tempDir('shutdown');
  let smtp: TestSmtp | undefined;
  const children: ChildProcess[] = [];

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('SIGTERM during a send: the send finishes and is recorded, the process exits 0', async () => {
    smtp = await TestSmtp.start();
    smtp.delayMs = 800;
    const env = {
      DATA_DIR: path.join(dir, 'data'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      SMTP_URL: smtp.url,
    };
    const service = await startService(env);
    children.push(service.child);
    const agent = request.agent(service.url);
    const token = ((await agent.get('/api/csrf')).body as { token: string }).token;
    await agent
      .post('/api/sendmail')
      .set('Origin', ORIGIN)
      .set('X-XSRF-TOKEN', token)
      .set('Cookie', `XSRF-TOKEN=${token}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(validMessage()))
      .expect(202);
    await waitFor(() => smtp?.dataAttempts === 1);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(smtp.received).toHaveLength(1);

    // Started again, it knows the message went out and does not send it twice.
    const again = await startService(env);
    children.push(again.child);
    const r = await request(again.url).get('/api/ready').expect(200);
    expect(r.body.messages).toEqual({ queued: 0, delivered: 1, failed: 0, spam: 0 });
    again.child.kill('SIGTERM');
    await again.exited;
    expect(smtp.received).toHaveLength(1);
  });
});

describe('start-up configuration', () => {
  test('a bad setting is a clear error that names it, and the process exits 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: SERVICE_DIR,
      env: { ...process.env, RATE_LIMIT_MAX: 'lots', ALLOWED_ORIGINS: 'localhost:3000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/RATE_LIMIT_MAX: expected a whole number from 1 to \d+, got "lots"/);
    expect(stderr).toMatch(/ALLOWED_ORIGINS: "localhost:3000" is not an origin/);
  });
});

describe('a crash during delivery', () => {
  const dir = tempDir('crash');
  const children: ChildProcess[] = [];
  let smtp: TestSmtp | undefined;

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('SIGKILL with a slow relay after 12 accepted: only the sends in progress are repeated', async () => {
    smtp = await TestSmtp.start();
    smtp.delayMs = 150;
    const env = {
      DATA_DIR: path.join(dir, 'data'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      SMTP_URL: smtp.url,
      SMTP_CONNECTIONS: '2',
      RATE_LIMIT_MAX: '100',
    };
    const first = await startService(env);
    children.push(first.child);
    const agent = request.agent(first.url);
    const token = ((await agent.get('/api/csrf')).body as { token: string }).token;
    for (let i = 0; i < 12; i++) {
      await agent
        .post('/api/sendmail')
        .set('Origin', ORIGIN)
        .set('X-XSRF-TOKEN', token)
        .set('Cookie', `XSRF-TOKEN=${token}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ ...validMessage(), message: { subject: `m${i}`, body: 'x' } }))
        .expect(202);
    }
    await waitFor(() => (smtp?.received.length ?? 0) >= 5);
    first.child.kill('SIGKILL');
    await first.exited;

    smtp.delayMs = 0;
    const second = await startService(env);
    children.push(second.child);
    await waitFor(
      async () => (await request(second.url).get('/api/ready')).body.messages?.delivered === 12,
      { timeoutMs: 20_000, what: 'all 12 delivered' },
    );
    second.child.kill('SIGTERM');
    await second.exited;
    const ids = smtp.received.map((r) => r.mail.messageId);
    const twice = ids.length - new Set(ids).size;
    expect(new Set(ids).size).toBe(12);
    // At most the messages that were being sent when the process died (one per connection).
    expect(twice).toBeLessThanOrEqual(2);
  });
});
