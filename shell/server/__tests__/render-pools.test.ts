/**
 * @jest-environment node
 */
import { execFile, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { copyFile, cp, readFile } from 'node:fs/promises';
import http from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseManifest, type DeploymentManifest, type RemoteDeployment } from '@site/contracts';
import { sha256Integrity } from '@site/contracts/integrity';
import { testManifest, testRemote } from '@site/build/testing/manifest';
import { lineLogger } from '../http/logger';
import { ALLOWED_BUILTINS } from '../render/builtins';
import { chooseWall, describeWall } from '../render/launcher';
import { permissionArgs } from '../render/permissions';
import { RenderProcessError, RenderTimeoutError } from '../render/process';
import { RenderPools, type RenderPoolsOptions } from '../render/pools';

/** The shell's real server build (`npm run build -w shell`). */
const SHELL_SERVER_DIR = path.join(__dirname, '..', '..', 'dist', 'server');
const FIXTURE = path.join(__dirname, 'fixtures', 'render-remote');
const TOKEN = 'deploy-token-that-must-stay-in-the-site-server';
const PATHS = [
  'hello',
  'witness',
  'escape',
  'builtins',
  'slow',
  'loop',
  'hog',
  'crash',
  'throws',
  'huge',
  'hoard',
  'pid',
].map((p) => `/probe/${p}`);
const WALL = chooseWall('nobody');
const ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

/** Listens on a port the system has free; resolves with it. */
const listenFree = (server: http.Server): Promise<number> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);
const commandLine = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
const status = (pid: number, field: string): string =>
  new RegExp(`^${field}:[ \t]*(.*)$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ??
  '';

const closeServer = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

let work: string;
let remotesDir: string;
let tokenFile: string;
let markerFile: string;
let outboxFile: string;
let servedFile: string;
let origin: string;
let internalUrl: string;
let remoteServer: http.Server;
let internalServer: http.Server;
/** Everything that reached the internal server: requests and raw connections. */
const internalHits: string[] = [];
/** Every URL the site server's fetchBuild was asked for. */
const fetched: string[] = [];
const previousToken = process.env.DEPLOY_TOKEN;

async function fetchBuild(url: string, remote: RemoteDeployment): Promise<string> {
  fetched.push(url);
  if (new URL(url).origin !== new URL(remote.entry).origin) {
    throw new Error(`${url} is not on ${remote.name}'s origin`);
  }
  const response = await fetch(url, { redirect: 'error' });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.text();
}

/** The probe remote's entry at `version`, pinned (unless told not to) to its folder's Node build. */
function probe(version: string, { pinned = true } = {}): RemoteDeployment {
  const remote = testRemote('probe', `${origin}/probe`, '/probe', PATHS);
  const build = path.join(remotesDir, 'probe', version, 'server', 'pages.js');
  const pin = pinned ? { serverIntegrity: sha256Integrity(readFileSync(build)) } : {};
  const entry = { ...remote, version, entry: `${origin}/probe/${version}/remoteEntry.js`, ...pin };
  return parseManifest(testManifest([entry])).remotes[0]!;
}

const only = (remote: RemoteDeployment): DeploymentManifest =>
  parseManifest(testManifest([remote]));

const part = (remote: RemoteDeployment, pagePath: string) => ({
  part: 'page' as const,
  manifest: only(remote),
  path: pagePath,
});

const made: RenderPools[] = [];
const log: string[] = [];
async function pools(options: Partial<RenderPoolsOptions> = {}): Promise<RenderPools> {
  const created = await RenderPools.create({
    shellServerDir: SHELL_SERVER_DIR,
    wall: WALL,
    shellProcesses: 1,
    groupProcesses: 1,
    timeoutMs: 3000,
    maxPageBytes: 1024 * 1024,
    memoryMb: 256,
    groupMemoryMb: 4096,
    previewPools: 16,
    fetchBuild,
    log: lineLogger((line) => log.push(line)),
    ...options,
  });
  made.push(created);
  return created;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'render-pools-'));
  remotesDir = path.join(work, 'remotes');
  // A deploy folder with a token in it, and an outbox, as the site's own are kept: their owner's.
  mkdirSync(path.join(work, 'deploy'), { mode: 0o700 });
  tokenFile = path.join(work, 'deploy', '.deploy-token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  mkdirSync(path.join(work, 'outbox'), { mode: 0o700 });
  outboxFile = path.join(work, 'outbox', 'outbox.sqlite');
  const outbox = new DatabaseSync(outboxFile);
  outbox.exec(
    "CREATE TABLE messages (body TEXT); INSERT INTO messages VALUES ('a prospect''s words')",
  );
  outbox.close();
  // A folder the site serves files from, as the shell's public folder is: readable, not writable.
  mkdirSync(path.join(work, 'public'));
  chmodSync(work, 0o755);
  servedFile = path.join(work, 'public', 'x.html');
  markerFile = path.join(work, 'written-by-a-remote');
  process.env.DEPLOY_TOKEN = TOKEN;

  internalServer = http.createServer((req, res) => {
    internalHits.push(`${req.method} ${req.url}`);
    res.end('inside');
  });
  internalServer.on('connection', () => internalHits.push('connection'));
  internalUrl = `http://127.0.0.1:${await listenFree(internalServer)}/secret`;

  remoteServer = http.createServer((req, res) => {
    const file = path.join(remotesDir, path.normalize(decodeURIComponent(req.url ?? '/')));
    if (!file.startsWith(`${remotesDir}${path.sep}`) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.end(readFileSync(file));
  });
  origin = `http://127.0.0.1:${await listenFree(remoteServer)}`;

  await cp(FIXTURE, path.join(remotesDir, 'probe'), { recursive: true });
  const pages = path.join(remotesDir, 'probe', '1.0.0', 'server', 'pages.js');
  const filled = (await readFile(pages, 'utf8'))
    .replace('__INTERNAL_URL__', internalUrl)
    .replace('__TOKEN_FILE__', tokenFile)
    .replace('__MARKER_FILE__', markerFile)
    .replace('__OUTBOX_FILE__', outboxFile)
    .replace('__SERVED_FILE__', servedFile)
    .replace('__BUILTINS__', JSON.stringify(builtinModules));
  writeFileSync(pages, filled);
}, 180_000);

afterEach(async () => {
  await Promise.all(made.splice(0).map((p) => p.close()));
  fetched.length = 0;
  log.length = 0;
});

afterAll(async () => {
  if (previousToken === undefined) delete process.env.DEPLOY_TOKEN;
  else process.env.DEPLOY_TOKEN = previousToken;
  await Promise.all([closeServer(remoteServer), closeServer(internalServer)]);
  rmSync(work, { recursive: true, force: true });
});

describe('a group’s render processes', () => {
  it('render its pages with the real shell build, and nothing but its own group', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    const reply = await renders.group(probe1).render(part(probe1, '/probe/hello'));
    expect(reply.failure).toBeNull();
    expect(reply.html).toContain('Hello from the probe');

    // Asked for another group's page, the process has no code for it.
    const other = { ...probe1, name: 'other' };
    const refused = await renders.group(probe1).render({ ...part(other, '/probe/hello') });
    expect(refused.status).toBe(503);
    expect(refused.failure).toContain('renders probe@1.0.0 only');
  });

  it('start with no environment, reading a private copy of the shell build only, under the OS wall where the server is root', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    await renders.group(probe1).render(part(probe1, '/probe/hello'));
    const [pid] = renders.group(probe1).processes;
    if (pid === undefined) throw new Error('no render process is running');

    const args = commandLine(pid);
    expect(args).toContain('--permission');
    expect(args).toContain('--disallow-code-generation-from-strings');
    expect(args).toContain('--max-old-space-size=192');
    const reads = args.filter((a) => a.startsWith('--allow-'));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/^--allow-fs-read=.*site-render-[^/]+$/);
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    expect(environment).toEqual(['NODE_ENV=production']);
    expect(args.join(' ')).not.toContain(TOKEN);
    // A team's process yields the processor to the site server and the shell's renders.
    expect(os.getPriority(pid)).toBe(10);
    if (ROOT) {
      expect(status(pid, 'Uid').split(/\s+/)).toEqual(['65534', '65534', '65534', '65534']);
      expect(status(pid, 'Groups')).toBe('');
      expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
      expect(describeWall(WALL)).toBe('as nobody (uid 65534), with no network');
    } else {
      expect(describeWall(WALL)).toContain("the site server's own user");
    }
  });

  it('give a team’s code no secret, file, database, socket, process or way to leave the process', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    const reply = await renders.group(probe1).render(part(probe1, '/probe/escape'));

    expect(reply.failure).toBeNull();
    const outcomes = Object.fromEntries(
      (/<p id="probe">([^<]*)<\/p>/.exec(reply.html)?.[1] ?? '')
        .split('; ')
        .map((line) => line.split(': ')),
    );
    expect(outcomes).toEqual({
      env: 'undefined',
      'env-names': 'NODE_ENV',
      read: 'ERR_BUILTIN_DENIED',
      write: 'ERR_BUILTIN_DENIED',
      sqlite: 'ERR_BUILTIN_DENIED',
      attach: 'ERR_BUILTIN_DENIED',
      spawn: 'ERR_BUILTIN_DENIED',
      worker: 'ERR_BUILTIN_DENIED',
      fetch: 'ReferenceError',
      http: 'ERR_BUILTIN_DENIED',
      socket: 'ERR_NETWORK_DISABLED',
      listen: 'ERR_BUILTIN_DENIED',
      binding: 'ERR_ACCESS_DENIED',
      kill: 'ERR_SIGNAL_DENIED',
      execve: 'ERR_ACCESS_DENIED',
      'env-file': 'ERR_ACCESS_DENIED',
      report: 'TypeError',
      import: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING',
      function: 'EvalError',
      'require-fs': 'ERR_BUILTIN_DENIED',
      'require-util': 'function',
    });
    expect(JSON.stringify(reply)).not.toContain(TOKEN);
    expect(log.join('\n')).not.toContain(TOKEN);
    expect(internalHits).toEqual([]);
    expect(existsSync(markerFile)).toBe(false);
    expect(existsSync(servedFile)).toBe(false);
    // The site server fetched the remote's own build and nothing else.
    expect(fetched).toEqual([`${origin}/probe/1.0.0/server/pages.js`]);
  });

  it('let a team’s code have the allowed built-ins only, however it asks for one', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    const reply = await renders.group(probe1).render(part(probe1, '/probe/builtins'));
    const through = (/<p id="probe">([^<]*)<\/p>/.exec(reply.html)?.[1] ?? '').split(',');
    const names = new Set(through.map((t) => t.split(' via ')[0]!.replace(/^node:/, '')));
    // Nothing got through but the allow-list, and each allowed one by require and getBuiltinModule.
    expect([...names].sort()).toEqual([...ALLOWED_BUILTINS].sort());
    for (const name of ALLOWED_BUILTINS) {
      expect(through).toEqual(
        expect.arrayContaining([`${name} via require`, `${name} via getBuiltinModule`]),
      );
    }
    expect(through.some((t) => t.endsWith('via import') || t.endsWith('via createRequire'))).toBe(
      false,
    );
    expect(builtinModules.length).toBeGreaterThan(60);
  });

  it('run, as root, where even code past Node’s walls reads no outbox, writes no served folder and reaches no address', async () => {
    // A trusted script under the same wall, with no allow-list and no permission model: the
    // operating system alone stands in its way.
    const script = `
      const { DatabaseSync } = require('node:sqlite');
      const out = [];
      const attempt = (what, act) => { try { out.push(what + ': ' + act()); } catch (e) { out.push(what + ': ' + (e.code || e.errcode || e.message)); } };
      attempt('outbox', () => new DatabaseSync(${JSON.stringify(outboxFile)}, { readOnly: true }).prepare('SELECT body FROM messages').get().body);
      attempt('served', () => { const db = new DatabaseSync(':memory:'); db.exec("ATTACH DATABASE '${servedFile}' AS x; CREATE TABLE x.t (v)"); return 'written'; });
      attempt('token', () => require('node:fs').readFileSync(${JSON.stringify(tokenFile)}, 'utf8'));
      const socket = require('node:net').connect(${new URL(internalUrl).port}, '127.0.0.1');
      socket.on('connect', () => { out.push('connect: connected'); console.log(out.join('; ')); process.exit(0); });
      socket.on('error', (e) => { out.push('connect: ' + e.code); console.log(out.join('; ')); process.exit(0); });
    `;
    const result = spawnSync(WALL.command, [...WALL.prefix, '-e', script], { encoding: 'utf8' });
    if (ROOT) {
      expect(result.stdout.trim()).toBe(
        'outbox: ERR_SQLITE_ERROR; served: ERR_SQLITE_ERROR; token: EACCES; connect: ENETUNREACH',
      );
      expect(existsSync(servedFile)).toBe(false);
      expect(internalHits).toEqual([]);
    } else {
      // Without root there is no second wall: the first (above) is all.
      expect(result.stdout).toContain('outbox: a prospect');
    }
  });
});

describe('the pins of a group’s Node build', () => {
  it('never runs a build replaced after its pin was taken, and names both digests', async () => {
    const deployed = path.join(remotesDir, 'probe', '1.1.0', 'server', 'pages.js');
    const pinned = probe('1.1.0');
    await copyFile(path.join(remotesDir, 'probe', '1.1.0-replaced-pages.js'), deployed);
    const served = sha256Integrity(readFileSync(deployed));
    const renders = await pools();

    const render = renders.group(pinned).render(part(pinned, '/probe/hello'));
    await expect(render).rejects.toThrow(
      `${origin}/probe/1.1.0/server/pages.js of probe@1.1.0 does not match its pinned SHA-256 ` +
        `(pinned ${String(pinned.serverIntegrity)}, served ${served}): not run`,
    );
    // A page of the version fails at once now, rather than wait for a start that cannot come.
    const started = Date.now();
    await expect(renders.group(pinned).render(part(pinned, '/probe/hello'))).rejects.toThrow(
      'does not match its pinned SHA-256',
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('never runs a build without a pin', async () => {
    const renders = await pools();
    const unpinned = probe('1.0.0', { pinned: false });
    await expect(renders.group(unpinned).render(part(unpinned, '/probe/hello'))).rejects.toThrow(
      `${origin}/probe/1.0.0/server/pages.js of probe@1.0.0 has no pinned SHA-256 (serverIntegrity): not run`,
    );
  });
});

describe('the bounds of a render process', () => {
  it('stops a render that loops past its limit, and renders the next one on a new process', async () => {
    const renders = await pools({ timeoutMs: 1000 });
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    await group.render(part(probe1, '/probe/hello'));
    const [first] = group.processes;
    const started = Date.now();

    const looping = group.render(part(probe1, '/probe/loop'));
    await expect(looping).rejects.toThrow(RenderTimeoutError);
    await expect(looping).rejects.toThrow('rendering /probe/loop took over 1000 ms');
    expect(Date.now() - started).toBeLessThan(5000);

    const next = await group.render(part(probe1, '/probe/hello'));
    expect(next.html).toContain('Hello from the probe');
    expect(first !== undefined && alive(first)).toBe(false);
    expect(log.join('\n')).toContain('rendering /probe/loop took over 1000 ms; it is replaced');
  });

  it('replaces a process whose code keeps it busy between renders, and renders elsewhere', async () => {
    const renders = await pools({ timeoutMs: 1000 });
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    expect((await group.render(part(probe1, '/probe/hog'))).html).toContain('Hogging');
    const [hogging] = group.processes;
    if (hogging === undefined) throw new Error('no render process is running');
    // Until its code has taken the processor (a second of CPU time counted in clock ticks).
    const cpu = () => {
      const fields = readFileSync(`/proc/${hogging}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const before = cpu();
    while (cpu() - before < 20) await new Promise((resolve) => setTimeout(resolve, 20));

    const next = await group.render(part(probe1, '/probe/hello'));
    expect(next.html).toContain('Hello from the probe');
    expect(hogging !== undefined && alive(hogging)).toBe(false);
    expect(log.join('\n')).toContain('did not start rendering /probe/hello within 1000 ms');
  });

  it('never holds a page over its size limit: the render fails and its process is replaced', async () => {
    const renders = await pools({ maxPageBytes: 1024 * 1024 });
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    const huge = group.render(part(probe1, '/probe/huge'));
    await expect(huge).rejects.toThrow(RenderProcessError);
    await expect(huge).rejects.toThrow(/its reply is over 1114112 bytes/);
    expect((await group.render(part(probe1, '/probe/hello'))).html).toContain('Hello');
  });

  it('ends a process whose code hoards memory outside its heap, and leaves the other pools alone', async () => {
    const renders = await pools({ memoryMb: 160 });
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    await group.render(part(probe1, '/probe/hoard'));
    const [hoarder] = group.processes;
    const shellPid =
      (await renders.shell.render({ part: 'frame', manifest: only(probe1), path: '/' }),
      renders.shell.processes[0]);

    const deadline = Date.now() + 15_000;
    while (hoarder !== undefined && alive(hoarder) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(hoarder !== undefined && alive(hoarder)).toBe(false);
    expect(log.join('\n')).toMatch(/held \d+ MB, over its limit of 160 MB/);
    expect(shellPid !== undefined && alive(shellPid)).toBe(true);
    expect((await group.render(part(probe1, '/probe/hello'))).html).toContain('Hello');
  }, 30_000);

  it('replaces the process of a page that failed, so nothing of it stays', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    const before = (await group.render(part(probe1, '/probe/pid'))).html;
    const failed = await group.render(part(probe1, '/probe/throws'));
    expect(failed.status).toBe(503);
    expect(failed.failure).toContain('the probe page threw');
    const after = (await group.render(part(probe1, '/probe/pid'))).html;
    expect(after).not.toBe(before);
  });

  it('fails the render of a process that crashes, and recovers', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    await expect(group.render(part(probe1, '/probe/crash'))).rejects.toThrow(
      'the probe crashed its process',
    );
    expect((await group.render(part(probe1, '/probe/hello'))).html).toContain('Hello');
  });
});

describe('the lifetime of a group’s processes', () => {
  it('ends an old version’s processes as soon as another version is live', async () => {
    const renders = await pools();
    const v1 = probe('1.0.0');
    const v2 = probe('1.1.0');
    renders.setLive([v1]);
    await renders.group(v1).render(part(v1, '/probe/hello'));
    const old = renders.group(v1).processes;
    expect(old).toHaveLength(1);

    renders.setLive([v2]);
    const deadline = Date.now() + 5000;
    while (old.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(old.filter(alive)).toEqual([]);
    expect(log.join('\n')).toContain('render pool probe@1.0.0: retired (it is no longer live)');
    // Asked again (a preview link, say), the old version starts afresh in a new process.
    expect(renders.group(v1).processes).toEqual([]);
  });

  it('kills every process on close, refusing what was pending and what comes after', async () => {
    const renders = await pools();
    const probe1 = probe('1.0.0');
    const group = renders.group(probe1);
    await group.render(part(probe1, '/probe/hello'));
    const pids = [...group.processes, ...renders.shell.processes];
    const pending = expect(group.render(part(probe1, '/probe/slow'))).rejects.toThrow(
      'render pool is closed',
    );

    await renders.close();
    await pending;
    expect(pids.filter(alive)).toEqual([]);
    await expect(group.render(part(probe1, '/probe/hello'))).rejects.toThrow(
      'render pool is closed',
    );
  });

  it('lets the site server’s process end once it is closed', async () => {
    // The site server's own runtime (tsx), in a process with nothing else to wait for.
    const script = `
      const { RenderPools } = require(${JSON.stringify(path.join(__dirname, '..', 'render', 'pools.ts'))});
      const { chooseWall } = require(${JSON.stringify(path.join(__dirname, '..', 'render', 'launcher.ts'))});
      RenderPools.create({
        shellServerDir: ${JSON.stringify(SHELL_SERVER_DIR)},
        wall: chooseWall('nobody'),
        shellProcesses: 2,
        groupProcesses: 1,
        timeoutMs: 3000,
        maxPageBytes: 1048576,
        memoryMb: 256,
        groupMemoryMb: 1024,
        previewPools: 2,
        fetchBuild: async () => '',
        log: { info() {}, warn() {}, error() {} },
      }).then(async (pools) => {
        const manifest = { schemaVersion: 1, generatedAt: '', remotes: [] };
        const reply = await pools.shell.render({ part: 'page', manifest, path: '/' });
        await pools.close();
        console.log('closed after', reply.status);
      });
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
  const readable = ['/srv/shell/server', '/srv/other'];

  it('repeats --allow-fs-read per path, as Node 22 and 24 read it', () => {
    expect(
      permissionArgs(readable, node('24.21.0', ['--permission', '--disable-warning'])),
    ).toEqual([
      '--permission',
      '--allow-fs-read=/srv/shell/server',
      '--allow-fs-read=/srv/other',
      '--disable-warning=ExperimentalWarning',
    ]);
  });

  it('refuses a Node without a permission model', () => {
    expect(() => permissionArgs(readable, node('18.20.0', ['--allow-fs-read']))).toThrow(
      'Node 18.20.0 has no permission model',
    );
  });
});
