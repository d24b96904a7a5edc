/**
 * @jest-environment node
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ephemeralPort } from '@site/build/testing/ports';
import { freshDatabase } from './test-postgres';

/**
 * The site server as its own process, started as `npm start` and production start it
 * (`node --import tsx shell/server/main.ts`): a bad setting stops it at once with a message naming
 * the variable, and its connections are bounded in time and per client address, over real sockets.
 * Its starts share a database of the run's PostgreSQL (one at a time, each from the same empty
 * manifest), each on a port the system has free.
 */

const ROOT = path.join(__dirname, '..', '..', '..');
const MAIN = path.join(ROOT, 'shell', 'server', 'main.ts');
const SHELL_DIST = path.join(ROOT, 'shell', 'dist');
/** sysexits.h's EX_CONFIG, which tells `npm start` not to start it again unchanged. */
const EX_CONFIG = 78;

let work: string;
let deployDir: string;
let databaseUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'site-process-'));
  deployDir = path.join(work, 'deploy');
  mkdirSync(deployDir);
  writeFileSync(path.join(deployDir, 'remotes.json'), '{"schemaVersion":1,"remotes":[]}\n');
  databaseUrl = await freshDatabase();
  // Once, so that tsx's compile of the server's sources (cold after a change) is not counted
  // against the first case's time.
  await (
    await site({ PORT: 'not-a-port' })
  ).exited;
}, 120_000);

afterAll(async () => {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }),
  );
  rmSync(work, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `main.ts` with these variables over working ones (the real shell build, an empty manifest, the
 * file's database, a free port, one render process); `openFiles` lowers its file-descriptor limit
 * as `ulimit -n` does.
 */
async function site(env: Record<string, string>, openFiles?: number): Promise<Started> {
  const full = {
    ...process.env,
    PORT: String(await ephemeralPort()),
    SHELL_DIST,
    DEPLOY_DIR: deployDir,
    RENDER_WORKERS: '1',
    DATABASE_URL: databaseUrl,
    HOST: '',
    ...env,
  };
  const node = [process.execPath, '--import', 'tsx', MAIN];
  const child = openFiles
    ? spawn('/bin/sh', ['-c', `ulimit -n ${openFiles} && exec "$0" "$@"`, ...node], {
        cwd: ROOT,
        env: full,
      })
    : spawn(node[0]!, node.slice(1), { cwd: ROOT, env: full });
  children.push(child);
  let text = '';
  child.stdout!.on('data', (chunk) => (text += String(chunk)));
  child.stderr!.on('data', (chunk) => (text += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => text, exited };
}

/** Resolves once the site says it listens; rejects with its output if it stops first. */
async function listening(started: Started): Promise<string> {
  const end = Date.now() + 60_000;
  for (;;) {
    const m = /site: (http:\/\/localhost:\d+)\//.exec(started.output());
    if (m) return m[1]!.replace('localhost', '127.0.0.1');
    if (started.child.exitCode !== null || Date.now() > end) {
      throw new Error(`the site did not start:\n${started.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a bad setting stops the site server at once, naming the variable', () => {
  const file = () => path.join(work, 'a-file');
  const emptyFolder = () => {
    const dir = path.join(work, 'empty');
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  test.each<[string, () => Record<string, string>, RegExp]>([
    [
      'DEPLOY_DIR mistyped',
      () => ({ DEPLOY_DIR: path.join(work, 'deplyo') }),
      /DEPLOY_DIR: \S+deplyo does not exist/,
    ],
    [
      'DEPLOY_DIR a file',
      () => (writeFileSync(file(), 'x'), { DEPLOY_DIR: file() }),
      /DEPLOY_DIR: \S+a-file is a file, not a folder/,
    ],
    [
      'SHELL_DIST missing',
      () => ({ SHELL_DIST: path.join(work, 'no-shell') }),
      /SHELL_DIST: \S+no-shell does not exist/,
    ],
    [
      'SHELL_DIST without a build',
      () => ({ SHELL_DIST: emptyFolder() }),
      /SHELL_DIST: \S+empty holds no build of the shell \(no server\/render\.js\)/,
    ],
    [
      'HOST not an address',
      () => ({ HOST: '256.1.1.1' }),
      /HOST: "256\.1\.1\.1" is not an address/,
    ],
    [
      'HOST a name that does not resolve',
      () => ({ HOST: 'no-such-host.invalid' }),
      /HOST: "no-such-host\.invalid" does not resolve/,
    ],
    [
      'REQUEST_TIMEOUT_MS past what a timer holds',
      () => ({ REQUEST_TIMEOUT_MS: '3000000000' }),
      /REQUEST_TIMEOUT_MS: "3000000000" is not a whole number of milliseconds \(1000 to 600000\)/,
    ],
  ])(
    '%s',
    async (_what, env, message) => {
      const started = await site(env());
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        started.exited,
        new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve('still running after 10 s'), 10_000);
        }),
      ]);
      clearTimeout(timer);
      expect({ code, output: started.output() }).toEqual({
        code: EX_CONFIG,
        output: expect.stringMatching(message),
      });
      expect(started.output()).toMatch(/^site: could not start: Invalid settings:\n/);
      // Longer than the 10 s the process is given to stop.
    },
    20_000,
  );

  test('PORT in use: named', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const started = await site({ PORT: String(port) });
      expect(await started.exited).toBe(EX_CONFIG);
      expect(started.output()).toContain(`PORT: ${port} is in use by another process`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});

/** A connection from `from` that sends `data`, then nothing; resolves once it is open. */
function connect(url: string, data: string, from = '127.0.0.1'): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: from }, () => {
      socket.write(data);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

const BODY_NEVER_SENT = 'POST /contact HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n';

describe("the site server's connections", () => {
  test('a request whose body never comes is closed within REQUEST_TIMEOUT_MS', async () => {
    const url = await listening(
      await site({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' }),
    );
    const started = Date.now();
    const socket = await connect(url, BODY_NEVER_SENT);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(text).toMatch(/HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(2000 + 1500);
  }, 90_000);

  test('thousands of idle connections from one address leave a new visitor served', async () => {
    // As `ulimit -n 1024`: without a limit per address, 1,500 connections take every descriptor.
    const url = await listening(await site({}, 1024));
    const hoard: net.Socket[] = [];
    try {
      for (let i = 0; i < 1500; i++) {
        const socket = await connect(url, BODY_NEVER_SENT, '127.0.0.2');
        socket.on('error', () => undefined);
        socket.resume();
        hoard.push(socket);
      }
      // Each past the address's share was answered 503 and closed; wait until those have gone.
      const open = () => hoard.filter((s) => !s.closed).length;
      for (let end = Date.now() + 10_000; open() > 256 && Date.now() < end;) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(open()).toBe(256);
      const visitor = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) });
      expect(visitor.status).toBe(200);
      expect(await visitor.text()).toContain('</html>');
    } finally {
      for (const socket of hoard) socket.destroy();
    }
  }, 90_000);
});

describe("the site server's log", () => {
  test('a log nobody reads holds up no answer, and its lines come once it is read again', async () => {
    const started = await site({ LOG_LEVEL: 'info' });
    const url = await listening(started);
    // Standard error is no longer read: the pipe fills after a few hundred request lines.
    started.child.stderr!.pause();
    const before = started.output().length;
    const statuses: number[] = [];
    for (let batch = 0; batch < 40; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${url}/`, { headers: { 'Accept-Encoding': 'gzip' } }).then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
        ),
      );
      statuses.push(...answers);
    }
    // 2,000 request lines of about 150 bytes each: far more than a pipe holds (64 KB).
    expect(statuses.filter((s) => s === 200)).toHaveLength(2000);
    started.child.stderr!.resume();
    const end = Date.now() + 30_000;
    const lines = () =>
      started
        .output()
        .slice(before)
        .split('\n')
        .filter((line) => line.includes('"path":"/"')).length;
    while (lines() < 2000 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(lines()).toBe(2000);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 120_000);
});
