/**
 * An outbox an earlier start kept in SQLite moves into PostgreSQL on the first start with
 * DATABASE_URL: a message still waiting for its relay is delivered from the database, a delivered
 * one stays counted, and the file holding them is gone.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { getCsrf, post, tempDir, validMessage, waitFor } from './helpers';
import { TestSmtp, closedPort } from './relay';
import { testStore } from './stores';
import { startService } from './service-process';

const store = testStore('postgres', 3498);
const dir = tempDir('move-in');
const children: ChildProcess[] = [];
let smtp: TestSmtp | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(url: string, subject: string): Promise<string> {
  const csrf = await getCsrf(url);
  const message = validMessage();
  const res = await post(url, csrf, {
    ...message,
    message: { ...message.message, subject },
  }).expect(202);
  return (res.body as { messageId: string }).messageId;
}

test('the SQLite outbox of an earlier start moves into PostgreSQL, and its queued message arrives', async () => {
  const env = { DATA_DIR: path.join(dir, 'data'), MAILBOX_DIR: path.join(dir, 'mailbox') };
  smtp = await TestSmtp.start();

  // An earlier start without a database: one message delivered, one queued (its relay was down).
  const delivering = await startService({ ...env, SMTP_URL: smtp.url, RETRY_BASE_MS: '50' });
  children.push(delivering.child);
  await send(delivering.url, 'Delivered before the move');
  await waitFor(() => smtp!.received.length === 1, { what: 'the first message to arrive' });
  delivering.child.kill('SIGTERM');
  await delivering.exited;

  const down = await closedPort();
  const queuing = await startService({
    ...env,
    SMTP_URL: `smtp://127.0.0.1:${down}`,
    RETRY_BASE_MS: '60000',
    RETRY_MAX_MS: '60000',
  });
  children.push(queuing.child);
  const queued = await send(queuing.url, 'Queued before the move');
  await waitFor(async () => {
    const r = await request(queuing.url).get('/api/ready');
    return r.body.messages?.queued === 1;
  });
  queuing.child.kill('SIGKILL');
  await queuing.exited;
  const file = path.join(env.DATA_DIR, 'outbox.sqlite');
  expect(existsSync(file)).toBe(true);

  // The first start on PostgreSQL: the queued message is delivered from the database.
  const moved = await startService({
    ...env,
    ...store.env,
    SMTP_URL: smtp.url,
    RETRY_BASE_MS: '50',
  });
  children.push(moved.child);
  const received = await waitFor(() => smtp!.received.length === 2 && smtp!.received, {
    timeoutMs: 15_000,
    what: 'the queued message to arrive after the move',
  });
  expect(received[1]?.mail.messageId).toBe(`<${queued}@highveld-digital.co.za>`);
  expect(received[1]?.mail.subject).toMatch(/Queued before the move/);
  expect(moved.logs.join('\n')).toMatch(
    /moved the outbox file .*outbox\.sqlite into PostgreSQL: 2 messages \(1 still to deliver\)/,
  );
  const counts = await waitFor(async () => {
    const r = await request(moved.url).get('/api/ready');
    return r.status === 200 && r.body.messages.delivered === 2 && r.body.messages;
  });
  expect(counts).toEqual({ queued: 0, delivered: 2, failed: 0, spam: 0 });
  // Personal data is not left behind in a copy nothing reads.
  for (const suffix of ['', '-wal', '-shm']) expect(existsSync(`${file}${suffix}`)).toBe(false);

  // A restart finds nothing to move and delivers nothing twice.
  moved.child.kill('SIGTERM');
  await moved.exited;
  const again = await startService({ ...env, ...store.env, SMTP_URL: smtp.url });
  children.push(again.child);
  expect(again.logs.join('\n')).not.toMatch(/moved the outbox file/);
  const r = await request(again.url).get('/api/ready');
  expect(r.body.messages).toEqual({ queued: 0, delivered: 2, failed: 0, spam: 0 });
  expect(smtp.received).toHaveLength(2);
});
