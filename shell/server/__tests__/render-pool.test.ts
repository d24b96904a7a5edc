/**
 * @jest-environment node
 */
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { copyFile, cp, mkdir, readFile, readdir } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { parseManifest, type DeploymentManifest, type RemoteDeployment } from '@site/contracts';
import { sha256Integrity } from '@site/contracts/integrity';
import { testManifest, testRemote } from '@site/build/testing/manifest';
import { listenOnFreePort, portRange } from '@site/build/testing/ports';
import { permissionArgs } from '../render/permissions';
import { RenderPool, RenderTimeoutError, type RenderPoolOptions } from '../render-pool';

/** The shell's real server build (`npm run build -w shell`). */
const SHELL_SERVER_DIR = path.join(__dirname, '..', '..', 'dist', 'server');
const FIXTURE = path.join(__dirname, 'fixtures', 'render-remote');
const TOKEN = 'deploy-token-that-must-stay-in-the-site-server';
const SITE_URL = 'https://www.example.com';
const PATHS = ['hello', 'witness', 'escape', 'slow', 'loop', 'crash'].map((p) => `/probe/${p}`);

/** Listens on a free port from 3400 to 3469 (the databases of other tests use 3470 on), from a random start. */
const listenInRange = (server: http.Server): Promise<number> =>
  listenOnFreePort(server, portRange(3400, 3469, 3400 + Math.floor(Math.random() * 70)));

/** The render processes this test's process started, by pid (Linux's /proc). */
function renderProcesses(): number[] {
  const tasks = readdirSync('/proc/self/task');
  const children = tasks.flatMap((t) =>
    readFileSync(`/proc/self/task/${t}/children`, 'utf8').trim().split(' ').filter(Boolean),
  );
  return children.map(Number).filter((pid) => {
    try {
      return commandLine(pid).some((arg) => arg.startsWith('--allow-fs-read='));
    } catch {
      return false; // gone since
    }
  });
}

const commandLine = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

let work: string;
let remotesDir: string;
let tokenFile: string;
let markerFile: string;
let origin: string;
let internalUrl: string;
let remoteServer: http.Server;
let internalServer: http.Server;
/** Everything that reached the internal server: requests and raw connections. */
const internalHits: string[] = [];
/** Every URL the site server's fetchFile was asked for. */
const fetched: string[] = [];
const previousToken = process.env.DEPLOY_TOKEN;

/**
 * The site server's side of a file request, as small as it can be and still honest: only from
 * the remote entry's own origin, never following a redirect.
 */
async function fetchFile(url: string, remote: RemoteDeployment): Promise<string> {
  fetched.push(url);
  if (new URL(url).origin !== new URL(remote.entry).origin) {
    throw new Error(`${url} is not on ${remote.name}'s origin`);
  }
  const response = await fetch(url, { redirect: 'error' });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.text();
}

/**
 * The probe remote's manifest entry at `version`, pinned (unless told not to) to the Node build
 * its folder holds now, as a deploy pins it.
 */
function probe(version: string, { pinned = true } = {}): Record<string, unknown> {
  const remote = testRemote('probe', `${origin}/probe`, '/probe', PATHS);
  const entry = `${origin}/probe/${version}/remoteEntry.js`;
  const build = path.join(remotesDir, 'probe', version, 'server', 'pages.js');
  const pin = pinned ? { serverIntegrity: sha256Integrity(readFileSync(build)) } : {};
  return { ...remote, version, entry, ...pin };
}

const manifestOf = (remote: Record<string, unknown>): DeploymentManifest =>
  parseManifest(testManifest([remote]));

const job = (manifest: DeploymentManifest, pagePath: string) => ({
  manifest,
  path: pagePath,
  siteUrl: SITE_URL,
});

const pools: RenderPool[] = [];
const log: string[] = [];
function pool(options: Partial<RenderPoolOptions> = {}): RenderPool {
  const created = new RenderPool({
    shellServerDir: SHELL_SERVER_DIR,
    size: 1,
    timeoutMs: 3000,
    fetchFile,
    log: (line) => log.push(line),
    ...options,
  });
  pools.push(created);
  return created;
}

beforeAll(async () => {
  // The real shell build renders here; a fresh checkout builds it once (about 20 s).
  if (!existsSync(path.join(SHELL_SERVER_DIR, 'render.js'))) {
    await promisify(execFile)('npm', ['run', 'build', '-w', 'shell'], {
      cwd: path.join(__dirname, '..', '..', '..'),
    });
  }
  work = mkdtempSync(path.join(os.tmpdir(), 'render-pool-'));
  remotesDir = path.join(work, 'remotes');
  // A deploy folder with a token in it, as the site server's own would have.
  await mkdir(path.join(work, 'deploy'));
  tokenFile = path.join(work, 'deploy', '.deploy-token');
  writeFileSync(tokenFile, TOKEN);
  markerFile = path.join(work, 'written-by-a-remote');
  process.env.DEPLOY_TOKEN = TOKEN;

  internalServer = http.createServer((req, res) => {
    internalHits.push(`${req.method} ${req.url}`);
    res.end('inside');
  });
  internalServer.on('connection', () => internalHits.push('connection'));
  internalUrl = `http://127.0.0.1:${await listenInRange(internalServer)}/secret`;

  remoteServer = http.createServer((req, res) => {
    const file = path.join(remotesDir, path.normalize(decodeURIComponent(req.url ?? '/')));
    if (!file.startsWith(`${remotesDir}${path.sep}`) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.end(readFileSync(file));
  });
  origin = `http://127.0.0.1:${await listenInRange(remoteServer)}`;

  await cp(FIXTURE, path.join(remotesDir, 'probe'), { recursive: true });
  const pages = path.join(remotesDir, 'probe', '1.0.0', 'server', 'pages.js');
  const filled = (await readFile(pages, 'utf8'))
    .replace('__INTERNAL_URL__', internalUrl)
    .replace('__TOKEN_FILE__', tokenFile)
    .replace('__MARKER_FILE__', markerFile)
    .replace('__ENTRY__', `${origin}/probe/1.0.0/remoteEntry.js`);
  writeFileSync(pages, filled);
}, 180_000);

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  fetched.length = 0;
  log.length = 0;
});

afterAll(async () => {
  if (previousToken === undefined) delete process.env.DEPLOY_TOKEN;
  else process.env.DEPLOY_TOKEN = previousToken;
  await Promise.all([closeServer(remoteServer), closeServer(internalServer)]);
  rmSync(work, { recursive: true, force: true });
});

describe('RenderPool', () => {
  it('renders a remote page with the real shell build, its preloads from the remote’s lists', async () => {
    const pages = pool();
    const reply = await pages.render(job(manifestOf(probe('1.0.0')), '/probe/hello'));
    expect(reply.status).toBe(200);
    expect(reply.failure).toBeNull();
    expect(reply.html).toContain('Hello from the probe');
    expect(reply.remote).toEqual({ name: 'probe', version: '1.0.0' });
    const folder = `${origin}/probe/1.0.0`;
    expect(reply.scripts).toEqual([
      `${folder}/remoteEntry.js`,
      `${folder}/__federation_expose_pages.abc.js`,
      `${folder}/hello.def.js`,
    ]);
    expect(reply.head).toContain('<title>');
  });

  it('starts each render process with no environment, able to read the shell’s server build only', async () => {
    const pages = pool();
    await pages.ready();
    const [pid] = renderProcesses();
    if (pid === undefined) throw new Error('no render process is running');

    const args = commandLine(pid);
    const model = process.allowedNodeEnvironmentFlags.has('--permission')
      ? '--permission'
      : '--experimental-permission';
    expect(args).toContain(model);
    expect(args.filter((a) => a.startsWith('--allow-'))).toEqual([
      `--allow-fs-read=${realpathSync(SHELL_SERVER_DIR)}`,
    ]);
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    // The IPC channel's two variables are Node's own; the process clears them as it starts.
    expect(environment.filter((v) => !v.startsWith('NODE_CHANNEL_'))).toEqual([
      'NODE_ENV=production',
    ]);
    expect(args.join(' ')).not.toContain(TOKEN);
  });

  it('gives a remote’s code no secret, no file, no process, no socket and no one to signal', async () => {
    const pages = pool();
    const reply = await pages.render(job(manifestOf(probe('1.0.0')), '/probe/escape'));

    expect(reply.status).toBe(200);
    const outcomes = Object.fromEntries(
      (/<p id="probe">([^<]*)<\/p>/.exec(reply.html)?.[1] ?? '')
        .split('; ')
        .map((line) => line.split(': ')),
    );
    expect(outcomes).toEqual({
      env: 'undefined',
      'env-names': 'NODE_ENV',
      read: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      worker: 'ERR_ACCESS_DENIED',
      fetch: 'ReferenceError',
      http: 'ERR_NETWORK_DISABLED',
      net: 'ERR_NETWORK_DISABLED',
      dns: 'ERR_NETWORK_DISABLED',
      udp: 'ERR_NETWORK_DISABLED',
      binding: 'ERR_ACCESS_DENIED',
      kill: 'ERR_SIGNAL_DENIED',
      ipc: 'refused',
    });
    expect(JSON.stringify(reply)).not.toContain(TOKEN);
    expect(log.join('\n')).not.toContain(TOKEN);
    expect(internalHits).toEqual([]);
    expect(existsSync(markerFile)).toBe(false);
    // The site server fetched the remote's own files and nothing else.
    expect(fetched.every((url) => url.startsWith(`${origin}/probe/1.0.0/`))).toBe(true);
  });

  it('never runs a Node build replaced after its pin was taken, and names both digests', async () => {
    const deployed = path.join(remotesDir, 'probe', '1.1.0', 'server', 'pages.js');
    const pinned = probe('1.1.0');
    await copyFile(path.join(remotesDir, 'probe', '1.1.0-replaced-pages.js'), deployed);
    const served = sha256Integrity(readFileSync(deployed));
    const pages = pool();

    const reply = await pages.render(job(manifestOf(pinned), '/probe/hello'));

    expect(reply.status).toBe(503);
    expect(reply.html).toContain('This page is temporarily unavailable');
    expect(reply.html).not.toContain('replaced code ran');
    expect(reply.failure).toContain(
      `${origin}/probe/1.1.0/server/pages.js of probe@1.1.0 does not match its pinned SHA-256 ` +
        `(pinned ${String(pinned.serverIntegrity)}, served ${served}): not run`,
    );
    // Not a line of it ran in the process: the next page there sees no trace of it.
    const witness = await pages.render(job(manifestOf(probe('1.0.0')), '/probe/witness'));
    expect(witness.html).toContain('replaced code ran: undefined');
  });

  it('never runs a Node build without a pin', async () => {
    const pages = pool();
    const reply = await pages.render(
      job(manifestOf(probe('1.0.0', { pinned: false })), '/probe/hello'),
    );
    expect(reply.status).toBe(503);
    expect(reply.html).not.toContain('Hello from the probe');
    expect(reply.failure).toContain(
      `${origin}/probe/1.0.0/server/pages.js of probe@1.0.0 has no pinned SHA-256 (serverIntegrity): not run`,
    );
  });

  it('stops a render that loops past its limit, and renders the next one on a new process', async () => {
    const pages = pool({ timeoutMs: 1000 });
    const manifest = manifestOf(probe('1.0.0'));
    await pages.ready();
    const [first] = renderProcesses();
    const started = Date.now();

    const looping = pages.render(job(manifest, '/probe/loop'));
    await expect(looping).rejects.toThrow(RenderTimeoutError);
    await expect(looping).rejects.toThrow('rendering /probe/loop took over 1000 ms');
    expect(Date.now() - started).toBeLessThan(5000);

    const next = await pages.render(job(manifest, '/probe/hello'));
    expect(next.status).toBe(200);
    expect(next.html).toContain('Hello from the probe');
    expect(first !== undefined && alive(first)).toBe(false);
    expect(renderProcesses()).toHaveLength(1);
    expect(log.join('\n')).toContain('was stopped: rendering /probe/loop took over 1000 ms');
  });

  it('counts the limit from the render’s start, not from while its process was starting', async () => {
    const pages = pool({ timeoutMs: 1500 });
    // Sent before the process has even loaded the shell's build.
    const reply = await pages.render(job(manifestOf(probe('1.0.0')), '/probe/slow'));

    expect(reply.status).toBe(200);
    expect(reply.html).toContain('Slow but in time');
  });

  it('replaces a process that keeps dying with a growing wait, and does not charge a render for it', async () => {
    const pages = pool({ timeoutMs: 1500 });
    const manifest = manifestOf(probe('1.0.0'));
    // Three renders that crash their process, each with its one retry: six processes lost in a row.
    for (let i = 0; i < 3; i++) {
      await expect(pages.render(job(manifest, '/probe/crash'))).rejects.toThrow('crashed');
    }
    const waits = log.map((line) => /another starts in (\d+) ms/.exec(line)?.[1]).map(Number);
    expect(waits).toEqual([0, 100, 200, 400, 800, 1600]);

    // Queued while the next process waits its 1.6 s and starts: longer than the limit in all.
    const queued = Date.now();
    const reply = await pages.render(job(manifest, '/probe/slow'));
    expect(reply.status).toBe(200);
    expect(Date.now() - queued).toBeGreaterThan(1500);
  }, 30_000);

  it('is ready only once its processes have loaded the shell build', async () => {
    // A copy of the real build, taken away once the pool says it is ready.
    const dir = path.join(work, 'shell-server-copy');
    await cp(SHELL_SERVER_DIR, dir, { recursive: true });
    const pages = pool({ shellServerDir: dir, size: 2 });
    await pages.ready();
    rmSync(dir, { recursive: true, force: true });

    const replies = await Promise.all([
      pages.render(job(manifestOf(probe('1.0.0')), '/probe/hello')),
      pages.render(job(manifestOf(probe('1.0.0')), '/')),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
  });

  it('rejects ready() with the process’s own words when it cannot load the shell build', async () => {
    const empty = path.join(work, 'no-shell-build');
    await mkdir(empty, { recursive: true });
    const pages = pool({ shellServerDir: empty });
    await expect(pages.ready()).rejects.toThrow(
      /Cannot find module '.*no-shell-build\/render\.js'/,
    );
    expect(await readdir(empty)).toEqual([]);
  });

  it('gives the renders of a crashed process one more try, then fails them, and recovers', async () => {
    const pages = pool();
    const manifest = manifestOf(probe('1.0.0'));

    await expect(pages.render(job(manifest, '/probe/crash'))).rejects.toThrow(
      'the probe crashed its process',
    );
    // Its process fetched the build once, and the one replacing it once more: one retry only.
    const builds = fetched.filter((url) => url.endsWith('/server/pages.js'));
    expect(builds).toHaveLength(2);

    const next = await pages.render(job(manifest, '/probe/hello'));
    expect(next.status).toBe(200);
  });

  it('kills its processes on close, refusing what was pending and what comes after', async () => {
    const pages = pool();
    await pages.ready();
    const pids = renderProcesses();
    expect(pids).toHaveLength(1);
    const pending = expect(
      pages.render(job(manifestOf(probe('1.0.0')), '/probe/slow')),
    ).rejects.toThrow('the render pool is closed');

    await pages.close();

    await pending;
    expect(pids.filter(alive)).toEqual([]);
    expect(renderProcesses()).toEqual([]);
    await expect(pages.render(job(manifestOf(probe('1.0.0')), '/probe/hello'))).rejects.toThrow(
      'the render pool is closed',
    );
  });

  it('lets the site server’s process end once it is closed', async () => {
    // The site server's own runtime (tsx), in a process with nothing else to wait for.
    const script = `
      const { RenderPool } = require(${JSON.stringify(path.join(__dirname, '..', 'render-pool.ts'))});
      const pool = new RenderPool({
        shellServerDir: ${JSON.stringify(SHELL_SERVER_DIR)},
        size: 2,
        timeoutMs: 3000,
        fetchFile: async () => '',
      });
      const manifest = { schemaVersion: 1, generatedAt: '', remotes: [] };
      pool.render({ manifest, path: '/', siteUrl: ${JSON.stringify(SITE_URL)} })
        .then((reply) => pool.close().then(() => console.log('closed after', reply.status)));
    `;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '-e', script],
        { timeout: 20_000, cwd: path.join(__dirname, '..', '..') },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    expect(stdout.trim()).toBe('closed after 200');
  }, 30_000);
});

describe('permissionArgs', () => {
  const node = (version: string, flags: string[]) => ({ version, flags: new Set(flags) });
  const NODE_20 = ['--experimental-permission', '--allow-fs-read', '--disable-warning'];
  const readable = ['/srv/shell/server', '/srv/other'];

  it('repeats --allow-fs-read per path from Node 20.7 on, as 22 and 24 read it', () => {
    expect(permissionArgs(readable, node('20.20.2', NODE_20))).toEqual([
      '--experimental-permission',
      '--allow-fs-read=/srv/shell/server',
      '--allow-fs-read=/srv/other',
      '--disable-warning=ExperimentalWarning',
    ]);
    expect(
      permissionArgs(readable, node('24.21.0', ['--permission', '--disable-warning'])),
    ).toEqual([
      '--permission',
      '--allow-fs-read=/srv/shell/server',
      '--allow-fs-read=/srv/other',
      '--disable-warning=ExperimentalWarning',
    ]);
  });

  it('gives Node 20.0 to 20.6 one comma-separated list, and quiets it without --disable-warning', () => {
    expect(
      permissionArgs(readable, node('20.6.1', ['--experimental-permission', '--allow-fs-read'])),
    ).toEqual([
      '--experimental-permission',
      '--allow-fs-read=/srv/shell/server,/srv/other',
      '--no-warnings',
    ]);
  });

  it('refuses a Node without a permission model', () => {
    expect(() => permissionArgs(readable, node('18.20.0', ['--allow-fs-read']))).toThrow(
      'Node 18.20.0 has no permission model',
    );
  });
});
