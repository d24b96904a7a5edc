import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * One local site at a time (scripts/lib/one-site.ts), run as `npm start` runs it: in a process of
 * its own, which either goes on (and records itself until it exits) or says which site runs and
 * stops with 1.
 */
const root = path.join(__dirname, '..', '..');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'one-site-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A start that checks, says "started" and shows what it recorded, then exits. */
function start(url: string) {
  const code = `require('./scripts/lib/one-site').oneSiteAtATime(${JSON.stringify(dir)}, ${JSON.stringify(url)}, 'npm start').then(() => {
    console.log('started ' + require('fs').readFileSync(${JSON.stringify(path.join(dir, '.site.json'))}, 'utf8').trim());
  })`;
  return new Promise<{ status: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('exit', (status) => resolve({ status, out }));
  });
}

/** A port nothing listens on. */
async function freeUrl(): Promise<string> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/`;
}

test('with no site running it goes on, records itself while it runs, and removes the record on exit', async () => {
  const url = await freeUrl();
  const { status, out } = await start(url);
  expect(status).toBe(0);
  expect(out).toMatch(new RegExp(`^started \\{"pid":\\d+,"url":"${url}","command":"npm start"\\}`));
  expect(existsSync(path.join(dir, '.site.json'))).toBe(false);
});

test('a site recorded by a running process is named, with its process id, and nothing is started', async () => {
  // A process whose command line is a site's, as `npm start`'s is.
  const site = spawn(process.execPath, [
    '-e',
    'setInterval(() => {}, 1000)',
    path.join(root, 'scripts', 'start.ts'),
  ]);
  try {
    writeFileSync(
      path.join(dir, '.site.json'),
      JSON.stringify({ pid: site.pid, url: 'http://localhost:3000/', command: 'npm start' }),
    );
    const { status, out } = await start(await freeUrl());
    expect(status).toBe(1);
    expect(out).toContain(
      `A site is already running at http://localhost:3000/ (npm start, process ${site.pid}).`,
    );
    expect(out).not.toMatch(/^started /m);
    // The running site's record is left as it was.
    expect(existsSync(path.join(dir, '.site.json'))).toBe(true);
  } finally {
    site.kill();
  }
});

test('a recorded process id that now belongs to another program does not stop a start', async () => {
  // This test's own process runs, but it is not a site.
  writeFileSync(
    path.join(dir, '.site.json'),
    JSON.stringify({ pid: process.pid, url: 'http://localhost:3000/', command: 'npm start' }),
  );
  const { status, out } = await start(await freeUrl());
  expect(status).toBe(0);
  expect(out).toMatch(/^started /m);
});

test('the record of a site that is gone (killed) does not stop a start', async () => {
  const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
    encoding: 'utf8',
  });
  writeFileSync(
    path.join(dir, '.site.json'),
    JSON.stringify({ pid: Number(gone.stdout.trim()), url: 'http://localhost:3000/' }),
  );
  const { status, out } = await start(await freeUrl());
  expect(status).toBe(0);
  expect(out).toContain('started');
});

test.each([
  ['not JSON', '\u0000{"pid":'],
  ['a pid that is not a number', JSON.stringify({ pid: String(process.pid), url: 'x' })],
  ['an address that is not text', JSON.stringify({ pid: process.pid, url: ['\u2028'] })],
  ['a megabyte of text', 'x'.repeat(1024 * 1024)],
])('a record that is %s does not stop a start, and is replaced', async (_, text) => {
  writeFileSync(path.join(dir, '.site.json'), text);
  const { status, out } = await start(await freeUrl());
  expect(status).toBe(0);
  expect(out).toMatch(/^started \{"pid":\d+,/m);
});

test('a site answering on the port, started elsewhere, is named too', async () => {
  const server = http
    .createServer((req, res) => res.writeHead(req.url === '/_health' ? 200 : 404).end())
    .listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const { status, out } = await start(url);
    expect(status).toBe(1);
    expect(out).toContain(
      `A site is already answering at ${url} (not one started from this folder).`,
    );
  } finally {
    await new Promise((r) => server.close(r));
  }
});
