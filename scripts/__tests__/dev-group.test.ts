import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * `npm run dev -w <group>` refuses what it cannot run with, before it builds or starts anything:
 * a command line it cannot read (exit 2), a site it cannot compose (exit 1), with the reason. The
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
