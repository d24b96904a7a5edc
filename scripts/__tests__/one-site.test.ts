import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Whether `pid` runs (a zombie child of this test's process counts as gone). */
function runs(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const waitFor = async (what: string, check: () => boolean, ms = 20_000) => {
  for (const deadline = Date.now() + ms; !check();) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

test('a run killed with SIGKILL leaves its processes; the next start stops each as the run would have (SIGKILL after 10 s), then goes on', async () => {
  // A supervisor as `npm start` is one (its command line names scripts/start.ts), over a process
  // that stops on SIGTERM, one that stops only on SIGINT (as PostgreSQL is asked), and one that
  // ignores both.
  const specs = [
    { name: 'site', args: ['-e', 'setInterval(() => {}, 1000)'] },
    {
      name: 'database',
      stopSignal: 'SIGINT',
      args: ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"],
    },
    {
      name: 'stubborn',
      args: [
        '-e',
        "for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => {}); setInterval(() => {}, 1000)",
      ],
    },
  ];
  const code = `const one = require('./scripts/lib/one-site');
one.oneSiteAtATime(${JSON.stringify(dir)}, ${JSON.stringify(await freeUrl())}, 'npm start').then(() => {
  require('./scripts/lib/processes').runTogether(${JSON.stringify(specs)}, {
    onRunning: (children) => one.recordChildren(${JSON.stringify(dir)}, children),
  });
});`;
  const supervisor = spawn(process.execPath, [
    '--import',
    'tsx',
    '-e',
    code,
    path.join(root, 'scripts', 'start.ts'),
  ]);
  const record = () => {
    try {
      return JSON.parse(readFileSync(path.join(dir, '.site.json'), 'utf8')) as {
        children?: { name: string; pid: number }[];
      };
    } catch {
      return {};
    }
  };
  await waitFor('three recorded processes', () => record().children?.length === 3);
  const children = record().children!;
  supervisor.kill('SIGKILL');
  await new Promise((r) => supervisor.once('exit', r));
  expect(children.filter((c) => runs(c.pid))).toHaveLength(3);

  const { status, out } = await start(await freeUrl());
  expect({ status, out }).toEqual(expect.objectContaining({ status: 0 }));
  const named = children.map((c) => `${c.name} (pid ${c.pid})`).join(', ');
  expect(out).toContain(
    `stopping what an earlier npm start (process ${supervisor.pid}, killed) left running: ${named}`,
  );
  const stubborn = children.find((c) => c.name === 'stubborn')!;
  expect(out).toContain(`stubborn (pid ${stubborn.pid}) did not stop within 10 s: killed`);
  expect(out).not.toMatch(/(site|database) \(pid \d+\) did not stop/);
  expect(out).toMatch(/^started \{"pid":\d+,/m);
  await waitFor('every left process gone', () => children.every((c) => !runs(c.pid)));
}, 40_000);

test('a recorded process whose id now runs another program is left alone', async () => {
  const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  try {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    writeFileSync(
      path.join(dir, '.site.json'),
      JSON.stringify({
        pid: Number(gone.stdout.trim()),
        url: 'http://localhost:3000/',
        command: 'npm start',
        // Its id, with the command line of the process the run had under it.
        children: [
          {
            pid: other.pid,
            name: 'site',
            stopSignal: 'SIGTERM',
            cmdline: `node\0${path.join(root, 'shell', 'server', 'main.ts')}\0`,
          },
        ],
      }),
    );
    const { status, out } = await start(await freeUrl());
    expect(status).toBe(0);
    expect(out).not.toContain('stopping what');
    expect(runs(other.pid!)).toBe(true);
  } finally {
    other.kill();
  }
});

test('a killed run whose record names hostile or broken processes: a start goes on and stops nothing', async () => {
  const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  try {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    const own = readFileSync(`/proc/${bystander.pid}/cmdline`, 'utf8');
    const entry = (over: Record<string, unknown>) => ({
      pid: bystander.pid,
      name: 'site',
      stopSignal: 'SIGTERM',
      cmdline: own,
      ...over,
    });
    writeFileSync(
      path.join(dir, '.site.json'),
      JSON.stringify({
        pid: Number(gone.stdout.trim()),
        url: 'http://localhost:3000/',
        command: 'npm start',
        children: [
          null,
          'site',
          entry({ pid: 1, cmdline: readFileSync('/proc/1/cmdline', 'utf8') }),
          entry({ pid: -bystander.pid! }),
          entry({ pid: String(bystander.pid) }),
          entry({ pid: bystander.pid! + 0.5 }),
          entry({ name: 'x'.repeat(1024 * 1024) }),
          entry({ name: ['\u2028'] }),
          entry({ cmdline: '' }),
          entry({ cmdline: `${own}\u0000\u2028\ud800` }),
          entry({ stopSignal: 42 }),
        ],
      }),
    );
    const { status, out } = await start(await freeUrl());
    expect(status).toBe(0);
    expect(out).not.toContain('stopping what');
    expect(out).toMatch(/^started \{"pid":\d+,/m);
    expect(runs(bystander.pid!)).toBe(true);
    expect(runs(1)).toBe(true);
  } finally {
    bystander.kill();
  }
});

test('a killed run whose record asks for a signal that does not exist: the process is still stopped (SIGTERM)', async () => {
  const left = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  try {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    writeFileSync(
      path.join(dir, '.site.json'),
      JSON.stringify({
        pid: Number(gone.stdout.trim()),
        url: 'http://localhost:3000/',
        command: 'npm start',
        children: [
          {
            pid: left.pid,
            name: 'site\u2028',
            stopSignal: 'SIGNOTHING; rm -rf /',
            cmdline: readFileSync(`/proc/${left.pid}/cmdline`, 'utf8'),
          },
        ],
      }),
    );
    const { status, out } = await start(await freeUrl());
    expect(status).toBe(0);
    expect(out).toContain(`left running: site\u2028 (pid ${left.pid})`);
    await waitFor('the left process gone', () => !runs(left.pid!));
  } finally {
    left.kill();
  }
});
