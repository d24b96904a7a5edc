import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm run dev -w <group>` refuses what it cannot run with, before it builds or starts anything:
 * a command line it cannot read (exit 2), a site it cannot compose (exit 1), with the reason. It
 * runs its development site on a PostgreSQL of its own and leaves nothing behind when stopped. The
 * development loop itself is tested in the browser (tests/e2e/develop-inside-site.spec.ts).
 */
const root = path.join(__dirname, '..', '..');

/** The command in `cwd`, as its own process; resolves with its exit code and everything it printed. */
function dev(cwd: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; out: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', 'dev-group.ts'), ...args],
      { cwd, env: { ...process.env, ...env } },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('exit', (status) => resolve({ status, out }));
  });
}

/** A port on this machine that nothing listens on. */
async function freePort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const group = path.join(root, 'mfe-data');

test('outside a page group it says where to run it', async () => {
  expect(await dev(root, [])).toEqual({
    status: 2,
    out: 'dev: run it for a page group: npm run dev -w mfe-<group>\n',
  });
});

test.each([
  [['--port', '80000'], 'dev: --port takes a whole number from 1024 to 65535, not "80000"'],
  [
    ['--site', 'ftp://example.com'],
    'dev: --site takes an http(s) URL such as https://www.example.com',
  ],
  [
    ['--site', '\u2028'.repeat(200)],
    'dev: --site takes an http(s) URL such as https://www.example.com',
  ],
  [['--sites', 'x'], 'dev: unknown option --sites'],
])('%j: exit 2 with the reason and the usage', async (args, reason) => {
  const { status, out } = await dev(group, args);
  expect(status).toBe(2);
  expect(out.startsWith(`${reason}\n`)).toBe(true);
  expect(out).toContain('usage: npm run dev -w mfe-<group>');
});

test('with no site running it says to start one, and starts nothing', async () => {
  const port = await freePort();
  const { status, out } = await dev(group, [], { PORT: String(port) });
  expect(status).toBe(1);
  expect(out).toBe(
    `dev: no site answers at http://localhost:${port}: it could not be reached (connect ECONNREFUSED 127.0.0.1:${port}). Start it first with npm start in another terminal, or compose another site with -- --site <url>\n`,
  );
});

test('a named site that is not one is named, and nothing starts', async () => {
  // It answers, but not with a manifest.
  const server = http
    .createServer((_req, res) => res.writeHead(404).end('no'))
    .listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  try {
    // Asynchronous: this process answers as the site.
    const run = await dev(group, ['--site', `http://127.0.0.1:${port}`]);
    expect(run).toEqual({
      status: 1,
      out: `dev: http://127.0.0.1:${port} answered HTTP 404 for /remotes.json; nothing was started\n`,
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
});

/** The process and every process under it that is still alive (not a zombie), from /proc. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

/** A process's command line, or undefined when it has gone (or is a zombie). */
function commandLine(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return undefined;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  } catch {
    return undefined;
  }
}

/** Resolves once the child's output matches `pattern`; rejects when it exits first. */
function printed(child: ChildProcess, output: () => string, pattern: RegExp): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = pattern.exec(output());
      if (!match) return;
      child.stdout!.off('data', look);
      child.off('exit', exited);
      resolve([...match]);
    };
    const exited = () => reject(new Error(`it stopped before printing ${pattern}:\n${output()}`));
    child.stdout!.on('data', look);
    child.once('exit', exited);
  });
}

/** How the run is stopped: SIGTERM to the command, or Ctrl-C in its terminal (SIGINT to its group). */
const STOPS: [string, (child: ChildProcess) => void][] = [
  ['SIGTERM', (child) => child.kill('SIGTERM')],
  ['Ctrl-C', (child) => process.kill(-child.pid!, 'SIGINT')],
];

test.each(STOPS)(
  'the development site runs on a PostgreSQL of its own, and %s leaves nothing running and no folder behind',
  async (_how, stopIt) => {
    // The site composed from: one with no other group live.
    const base = http
      .createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            schemaVersion: 1,
            generatedAt: new Date(0).toISOString(),
            remotes: [],
          }),
        ),
      )
      .listen(0, '127.0.0.1');
    await new Promise((r) => base.once('listening', r));
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'dev-group-test-'));
    // Passable, as the system's own is: the render processes run as a user of their own.
    chmodSync(tmp, 0o711);
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'scripts', 'dev-group.ts'),
        '--site',
        `http://127.0.0.1:${(base.address() as AddressInfo).port}`,
        '--port',
        String(port),
      ],
      // Its temporary folders in one of the test's own, to see that none is left.
      // A process group of its own, as a terminal's foreground command has.
      { cwd: group, env: { ...process.env, TMPDIR: tmp }, detached: true },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const [, site] = await printed(
        child,
        () => out,
        /Development site: (http:\/\/localhost:\d+)\//,
      );
      expect(site).toBe(`http://localhost:${port}`);
      const page = await fetch(`${site}/services/business-intelligence`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('One version of the numbers');

      const tree = processTree(child.pid!);
      const database = tree
        .map(commandLine)
        .find((argv) => argv && path.basename(argv[0] ?? '') === 'postgres' && argv.includes('-D'));
      expect(database).toBeDefined();
      const dataDir = database![database!.indexOf('-D') + 1]!;
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);

      stopIt(child);
      expect(await exit).toBe(0);
      expect(tree.filter((pid) => commandLine(pid) !== undefined)).toEqual([]);
      expect(existsSync(dataDir)).toBe(false);
      // tsx keeps its compile cache in the temporary folder, as it does in the system's own.
      expect(readdirSync(tmp).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
    } finally {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      await new Promise((r) => base.close(r));
      rmSync(tmp, { recursive: true, force: true });
    }
  },
  240_000,
);
