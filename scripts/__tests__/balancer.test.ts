import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { findNginx, writeBalancerConfig } from '../lib/cluster';

/**
 * The cluster run's load balancer, for real (Debian's nginx with the configuration
 * `npm run start:cluster` writes), in front of two small servers standing in for the
 * mail-services: nginx on 3450, a site server on 3452, the mail-services on 3453 and 3454.
 */
const LB = 'http://127.0.0.1:3450';

/** A mail-service that answers as its database lets it: 503 with its own words, or 200. */
function mailService(port: number) {
  const state = { databaseAway: false, asked: 0 };
  const server = http.createServer((_request, response) => {
    state.asked += 1;
    response.setHeader('content-type', 'application/json');
    if (state.databaseAway) {
      response.statusCode = 503;
      response.setHeader('retry-after', '5');
      response.end(JSON.stringify({ message: 'The form cannot be checked just now.' }));
      return;
    }
    response.end(JSON.stringify({ token: `from ${port}` }));
  });
  return {
    state,
    listen: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let dir: string;
let nginx: ChildProcess;
const mails = [mailService(3453), mailService(3454)];
const site = http.createServer((_request, response) => response.end('a page'));

beforeAll(async () => {
  await Promise.all(mails.map((m) => m.listen()));
  await new Promise<void>((resolve) => site.listen(3452, '127.0.0.1', resolve));
  dir = mkdtempSync(path.join(os.tmpdir(), 'balancer-'));
  const config = writeBalancerConfig({
    dir,
    port: 3450,
    sites: [3452],
    mailServices: [3453, 3454],
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
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  nginx.kill('SIGTERM');
  await exited;
  await Promise.all([...mails.map((m) => m.close()), new Promise((r) => site.close(r))]);
  rmSync(dir, { recursive: true, force: true });
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
  expect(tokens).toEqual(new Set(['from 3453', 'from 3454']));
});
