import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { listenOnFreePort, portRange } from '@site/build/testing/ports';
import { findNginx, writeBalancerConfig } from '../lib/cluster';

/**
 * The cluster run's load balancer, for real (Debian's nginx with the configuration
 * `npm run start:cluster` writes), in front of two small servers standing in for the
 * mail-services and one for a site server, each on a free port from 3590 to 3599.
 */
const ports = () => portRange(3590, 3599, 3590 + Math.floor(Math.random() * 10));
let LB = '';

/** A mail-service that answers as its database lets it: 503 with its own words, or 200. */
function mailService() {
  const state = { databaseAway: false, asked: 0, port: 0 };
  const server = http.createServer((_request, response) => {
    state.asked += 1;
    response.setHeader('content-type', 'application/json');
    if (state.databaseAway) {
      response.statusCode = 503;
      response.setHeader('retry-after', '5');
      response.end(JSON.stringify({ message: 'The form cannot be checked just now.' }));
      return;
    }
    response.end(JSON.stringify({ token: `from ${state.port}` }));
  });
  return {
    state,
    listen: async () => void (state.port = await listenOnFreePort(server, ports())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let dir: string;
let nginx: ChildProcess;
const mails = [mailService(), mailService()];
const site = http.createServer((_request, response) => response.end('a page'));

beforeAll(async () => {
  for (const m of mails) await m.listen();
  const sitePort = await listenOnFreePort(site, ports());
  // nginx's own port: one free a moment ago.
  const probe = http.createServer();
  const port = await listenOnFreePort(probe, ports());
  await new Promise((resolve) => probe.close(resolve));
  LB = `http://127.0.0.1:${port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'balancer-'));
  const config = writeBalancerConfig({
    dir,
    port,
    sites: [sitePort],
    mailServices: mails.map((m) => m.state.port),
  });
  nginx = spawn(findNginx(), ['-p', dir, '-c', config, '-g', 'daemon off;'], { stdio: 'ignore' });
  for (;;) {
    const answered = await fetch(`${LB}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
    const exited = new Promise((resolve) => nginx.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  await Promise.all([...mails.map((m) => m.close()), new Promise((r) => site.close(r))]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a mail-service without its database: visitors get its own 503 and words, never nginx's error page, and it is not taken for dead", async () => {
  for (const m of mails) m.state.databaseAway = true;
  for (let i = 0; i < 10; i++) {
    const answer = await fetch(`${LB}/api/form-token`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toEqual({ message: 'The form cannot be checked just now.' });
  }
  // Each request was answered by one instance: a 503 of its own is an answer, not a failure to
  // retry elsewhere.
  expect(mails[0]!.state.asked + mails[1]!.state.asked).toBe(10);
  expect(mails[0]!.state.asked).toBeGreaterThan(0);
  expect(mails[1]!.state.asked).toBeGreaterThan(0);
  // The database back: both instances answer at once (neither was marked failed).
  for (const m of mails) m.state.databaseAway = false;
  const tokens = new Set<string>();
  for (let i = 0; i < 4; i++) {
    const answer = await fetch(`${LB}/api/form-token`);
    expect(answer.status).toBe(200);
    tokens.add(((await answer.json()) as { token: string }).token);
  }
  expect(tokens).toEqual(new Set(mails.map((m) => `from ${m.state.port}`)));
});
