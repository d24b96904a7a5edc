import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { listenOnFreePort, portRange } from '@site/build/testing/ports';
import type { ProcessSpec } from '../lib/processes';

/**
 * A process that must wait for another to answer before its first start (the cluster run's load
 * balancer waits for a site server), through the real supervisor in a process of its own.
 */
const DRIVER = path.join(__dirname, 'support', 'supervise.ts');

let supervisor: ChildProcess | undefined;
const lines: { at: number; text: string }[] = [];

afterEach(() => {
  try {
    if (supervisor?.pid !== undefined) process.kill(-supervisor.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  lines.length = 0;
});

function supervise(specs: ProcessSpec[]): ChildProcess {
  supervisor = spawn(process.execPath, ['--import', 'tsx', DRIVER, JSON.stringify({ specs })], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [supervisor.stdout!, supervisor.stderr!]) {
    readline
      .createInterface({ input: stream })
      .on('line', (text) => lines.push({ at: Date.now(), text }));
  }
  return supervisor;
}

async function line(pattern: RegExp, timeoutMs = 20_000): Promise<{ at: number; text: string }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.find((l) => pattern.test(l.text));
    if (found) return found;
    if (Date.now() > end) {
      throw new Error(`no line ${pattern}:\n${lines.map((l) => l.text).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A port free a moment ago, from 3570 to 3579. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  const port = await listenOnFreePort(
    probe,
    portRange(3570, 3579, 3570 + Math.floor(Math.random() * 10)),
  );
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A server that listens on `port` only after `delayMs`, answering 200 to anything. */
const lateServer = (port: number, delayMs: number): ProcessSpec => ({
  name: 'backend',
  args: [
    '-e',
    `setTimeout(() => require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, () => console.log('listening')), ${delayMs});`,
  ],
});

const balancer = (urls: string[]): ProcessSpec => ({
  name: 'balancer',
  args: ['-e', 'console.log(`up ${process.pid}`); setInterval(() => {}, 1000);'],
  startAfterAnswer: urls,
});

test('a process waits for one of its addresses to answer before its first start', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/_health`;
  supervise([lateServer(port, 1500), balancer([`http://127.0.0.1:9/_health`, url])]);
  const waiting = await line(/^\[balancer\] waiting for .* to answer$/);
  const listening = await line(/^\[backend\] listening$/);
  const up = await line(/^\[balancer\] up \d+$/);
  expect(waiting.at).toBeLessThan(listening.at);
  expect(up.at).toBeGreaterThanOrEqual(listening.at);
  expect(lines.map((l) => l.text)).toContain(`[balancer] ${url} answered: starting`);
});

test('stopped while it waits, the run ends without starting it', async () => {
  const child = supervise([balancer(['http://127.0.0.1:9/_health'])]);
  await line(/^\[balancer\] waiting for /);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(lines.filter((l) => /^\[balancer\] up/.test(l.text))).toEqual([]);
});
