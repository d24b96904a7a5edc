import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, startService, type ServiceProcess } from './service-process';
import { testStore } from './stores';

/**
 * The service as `npm start` runs it: a bad setting stops it at once with a message naming the
 * variable (never a hang, never a limit silently off), and a request that does not arrive in time
 * is closed, over a real socket.
 */

/** sysexits.h's EX_CONFIG, which tells `npm start` not to start it again unchanged. */
const EX_CONFIG = 78;

const store = testStore();
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mail-start-'));
  // Once, so that tsx's compile of the service's sources (cold after a change) is not counted
  // against the first case's time.
  await refused({ RATE_LIMIT_MAX: 'none' });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the service with `env` to its end, or for 10 s: its exit code and what it printed. */
async function refused(env: Record<string, string>) {
  const child = spawnServer({
    MAIL_SERVICE_PORT: '0',
    DATA_DIR: path.join(dir, 'data'),
    MAILBOX_DIR: path.join(dir, 'mailbox'),
    ...store.env,
    ...env,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    new Promise<number | null>((resolve) => child.once('exit', resolve)),
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('still running after 10 s'), 10_000);
    }),
  ]);
  clearTimeout(timer);
  if (child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  return { code, output };
}

describe('a bad setting stops the mail-service at once, naming the variable', () => {
  test.each<[string, () => Record<string, string>, RegExp]>([
    [
      'RATE_LIMIT_WINDOW past what a timer holds (the limit was off)',
      () => ({ RATE_LIMIT_WINDOW: '99999999999' }),
      /RATE_LIMIT_WINDOW: expected a whole number from 1 to 86400/,
    ],
    [
      'SHUTDOWN_TIMEOUT_MS past what a timer holds (shutdown was cut to nothing)',
      () => ({ SHUTDOWN_TIMEOUT_MS: '3000000000' }),
      /SHUTDOWN_TIMEOUT_MS: expected a whole number from 0 to 600000/,
    ],
    [
      'DATABASE_URL unset (the outbox has nowhere to be)',
      () => ({ DATABASE_URL: '' }),
      /DATABASE_URL: is not set: .*PostgreSQL.*npm start runs an embedded PostgreSQL and passes its URL/,
    ],
    [
      'DATABASE_URL of another database',
      () => ({ DATABASE_URL: 'mysql://mail:hunter2@db.internal/site' }),
      /DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//,
    ],
    [
      'MAILBOX_DIR under /proc',
      () => ({ MAILBOX_DIR: '/proc/nonexistent' }),
      /MAILBOX_DIR: cannot create \/proc\/nonexistent/,
    ],
    [
      'MAIL_SERVICE_HOST not an address',
      () => ({ MAIL_SERVICE_HOST: '256.1.1.1' }),
      /MAIL_SERVICE_HOST: "256\.1\.1\.1" is not an address to listen on/,
    ],
  ])('%s', async (_what, env, message) => {
    const { code, output } = await refused(env());
    expect({ code, output }).toEqual({ code: EX_CONFIG, output: expect.stringMatching(message) });
  });

  test('MAIL_SERVICE_PORT in use', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const { code, output } = await refused({ MAIL_SERVICE_PORT: String(port) });
      expect(code).toBe(EX_CONFIG);
      expect(output).toContain(`MAIL_SERVICE_PORT: port ${port} is already in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe("the mail-service's connections", () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startService({
      ...store.env,
      DATA_DIR: path.join(dir, 'served-data'),
      MAILBOX_DIR: path.join(dir, 'served-mailbox'),
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
  });

  test.each([
    [
      'a message whose body never comes',
      'POST /api/sendmail HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n',
      2000,
    ],
    ['headers that never end', 'GET /api/health HTTP/1.1\r\nHost: x\r\n', 1000],
  ])('%s: answered 408 and closed within its bound', async (_what, data, boundMs) => {
    const { port } = new URL(service.url);
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(data));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('close', resolve));
    // (A post is refused at once, before its body, when it does not say where it came from; the
    // connection still waits for the body it declared.)
    expect(text).toMatch(/HTTP\/1\.1 408 Request Timeout\r\n[^]*$/);
    expect(Date.now() - started).toBeLessThan(boundMs + 1500);
  });
});

describe("the mail-service's log", () => {
  test('a log nobody reads holds up no answer, and its lines come once it is read again', async () => {
    const service = await startService({
      ...store.env,
      DATA_DIR: path.join(dir, 'logged-data'),
      MAILBOX_DIR: path.join(dir, 'logged-mailbox'),
    });
    try {
      // Standard output is no longer read: the pipe fills after a few hundred request lines.
      service.child.stdout!.pause();
      const statuses: number[] = [];
      for (let batch = 0; batch < 120; batch++) {
        statuses.push(
          ...(await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
              fetch(`${service.url}/api/not-here-${batch}-${i}`).then(async (r) => {
                await r.arrayBuffer();
                return r.status;
              }),
            ),
          )),
        );
      }
      // 6,000 request lines of about 200 bytes: far more than a pipe holds (the socket pair a
      // child process writes to holds a few hundred KB).
      expect(statuses.filter((s) => s === 404)).toHaveLength(6000);
      service.child.stdout!.resume();
      const logged = () => service.logs.filter((l) => l.includes('/api/not-here-')).length;
      const end = Date.now() + 30_000;
      while (logged() < 6000 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(logged()).toBe(6000);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }, 120_000);
});
