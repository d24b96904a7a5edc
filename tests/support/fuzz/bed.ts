/**
 * What the fuzz runs against: the site server and the four remote servers as their own processes
 * (`TestDeployment`), the real mail-service behind `/api/*`, and secrets planted where a server
 * that serves too much would hand them out:
 *
 * - the site: the deploy folder's `.deploy-token` (the deploy API's real token) and `remotes.json`
 *   (public only as `/remotes.json`), the shell's Node build (`render.js`, `chunks.json`), and an
 *   internal service on a port of its own that only a forwarding mistake could reach;
 * - the `data` remote, served from a copy of its build: `.git/config`, `.env`, a dot-folder, a
 *   dotfile inside its version folder, and two files beside the copy (one in a folder whose name
 *   starts like the served folder's).
 *
 * Everything listens on a block of eight ports from 3420, 3430 or 3440: whichever is free, since
 * a bed torn down after a failed test may still hold its block while the next test's starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SHELL_PATHS, SITE_REMOTES } from '@site/contracts/site';
import { ROOT, TestDeployment, isRunning } from '../deployment';
import type { Canary } from './oracle';
import { exchange, header } from './raw-http';
import type { Surface } from './requests';

/** The fuzz's ports from `base`: the site, the remotes in SITE_REMOTES order, the mail-service, the internal service. */
function portsFrom(base: number) {
  return {
    site: base,
    remotes: SITE_REMOTES.map((_, i) => base + 1 + i),
    mail: base + 5,
    internal: base + 6,
    /** The one origin the deploy API allows; nothing listens there. */
    allowed: base + 7,
  };
}

type Ports = ReturnType<typeof portsFrom>;

/** Where a bed's ports may start: a bed still closing after a failed test holds one block. */
const PORT_BLOCKS = [3420, 3430, 3440];

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A block of ports where nothing listens, waiting a while for one to come free. */
async function freePorts(): Promise<Ports> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const base of PORT_BLOCKS) {
      const ports = portsFrom(base);
      const all = [ports.site, ...ports.remotes, ports.mail, ports.internal, ports.allowed];
      if (!(await Promise.all(all.map(portInUse))).some(Boolean)) return ports;
    }
    if (Date.now() > deadline)
      throw new Error(`no free block of ports at ${PORT_BLOCKS.join(', ')} (+0..7)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The remote whose build is copied, fuzzed and planted with secrets. */
const FUZZED_REMOTE = 'data';

const canaryText = (what: string) => `canary-${randomBytes(12).toString('hex')}-${what}`;

/** The folder of the shell's Node build: wherever under shell/ render.js sits beside chunks.json. */
function shellServerBuild(): string {
  const shell = path.join(ROOT, 'shell');
  const search = (dir: string, depth: number): string | null => {
    if (existsSync(path.join(dir, 'render.js')) && existsSync(path.join(dir, 'chunks.json')))
      return dir;
    if (depth === 0) return null;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || ['node_modules', 'src', '.git'].includes(entry.name)) continue;
      const found = search(path.join(dir, entry.name), depth - 1);
      if (found) return found;
    }
    return null;
  };
  const found = search(shell, 3);
  if (!found)
    throw new Error(
      'the shell is not built: no render.js beside chunks.json under shell/ (npm run build -w shell)',
    );
  return found;
}

/** The folder the site serves the shell's files from: dist/public beside the Node build, or dist. */
function shellPublicFolder(): string {
  const dist = path.join(ROOT, 'shell', 'dist');
  return existsSync(path.join(dist, 'public', 'index.html')) ? path.join(dist, 'public') : dist;
}

const firstBytes = (file: string, n = 64) => readFileSync(file).subarray(0, n);

/** Every file under `dir`, as URL paths from `dir`. */
function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out;
}

function version(folder: string): string {
  return (
    JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { version: string }
  ).version;
}

interface Process {
  name: string;
  child: ChildProcess;
}

export class FuzzBed {
  readonly deployment = new TestDeployment();
  readonly token = canaryText('deploy-token');
  readonly work = mkdtempSync(path.join(os.tmpdir(), 'fuzz-'));
  readonly processes: Process[] = [];
  ports!: Ports;
  private internal: http.Server | null = null;
  site!: Surface;
  remote!: Surface;
  siteCanaries: Canary[] = [];
  remoteCanaries: Canary[] = [];
  /** The live manifest's bytes as the deploy folder holds them. */
  manifest!: Buffer;

  static async start(): Promise<FuzzBed> {
    for (let attempt = 1; ; attempt++) {
      const bed = new FuzzBed();
      try {
        await bed.startAll();
        return bed;
      } catch (error) {
        await bed.close();
        // A port that looked free was taken before a server bound it: try the next free block.
        if (attempt < 3 && /EADDRINUSE/.test(String(error))) continue;
        throw error;
      }
    }
  }

  get siteOrigins(): string[] {
    return [`http://localhost:${this.ports.site}`, `http://127.0.0.1:${this.ports.site}`];
  }

  get remoteOrigins(): string[] {
    const port = this.remote.port;
    return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  }

  /** The processes that have stopped, with how. */
  stopped(): string[] {
    return this.processes
      .filter(({ child }) => child.exitCode !== null || child.signalCode !== null)
      .map(({ name, child }) => `${name} stopped (exit ${child.exitCode ?? child.signalCode})`);
  }

  /** The last lines the site and remote servers logged. */
  logTail(lines = 30): string {
    return this.deployment.siteLog.trim().split('\n').slice(-lines).join('\n');
  }

  private track(name: string): void {
    const child = this.deployment.children.at(-1);
    if (!child) throw new Error(`${name} was not started`);
    this.processes.push({ name, child });
  }

  private async startAll(): Promise<void> {
    const { deployment } = this;
    this.ports = await freePorts();
    // The token in the deploy folder, as `npm start` keeps it.
    writeFileSync(path.join(deployment.deployDir, '.deploy-token'), `${this.token}\n`, {
      mode: 0o600,
    });

    const serverBuild = shellServerBuild();
    const internalCanary = canaryText('internal-service');
    this.siteCanaries = [
      {
        what: "the deploy token (the deploy folder's .deploy-token)",
        bytes: Buffer.from(this.token),
      },
      {
        what: "the shell's Node build (render.js)",
        bytes: firstBytes(path.join(serverBuild, 'render.js')),
      },
      {
        what: "the shell's Node build (chunks.json)",
        bytes: firstBytes(path.join(serverBuild, 'chunks.json')),
      },
      {
        what: 'the internal service (a request forwarded off the mail-service)',
        bytes: Buffer.from(internalCanary),
      },
    ];
    this.internal = http.createServer((_req, res) => res.end(internalCanary));
    await deployment.listen(this.internal, this.ports.internal);

    const slot = SITE_REMOTES.find((r) => r.name === FUZZED_REMOTE);
    if (!slot) throw new Error(`no remote named ${FUZZED_REMOTE}`);
    const dist = path.join(this.work, 'dist');
    cpSync(path.join(ROOT, slot.folder, 'dist'), dist, { recursive: true });
    const remoteVersion = version(slot.folder);
    const plant = (file: string, what: string) => {
      mkdirSync(path.dirname(file), { recursive: true });
      const text = canaryText(what.replace(/\W+/g, '-'));
      writeFileSync(file, `${text}\n`);
      this.remoteCanaries.push({ what, bytes: Buffer.from(text) });
    };
    plant(path.join(dist, '.git', 'config'), '.git/config inside the served folder');
    plant(path.join(dist, '.env'), '.env inside the served folder');
    plant(
      path.join(dist, '.private', 'notes.txt'),
      'a file in a dot-folder inside the served folder',
    );
    plant(path.join(dist, remoteVersion, '.env'), '.env inside the version folder');
    plant(path.join(this.work, 'secret.txt'), 'a file beside the served folder');
    plant(
      path.join(this.work, 'dist-backup', 'secret.txt'),
      'a file in dist-backup beside the served folder',
    );

    await this.startMailService();

    const urls = Object.fromEntries(
      SITE_REMOTES.map((r, i) => [r.name, `http://localhost:${this.ports.remotes[i]}`]),
    );
    await deployment.writeManifest({ urls, dists: { [FUZZED_REMOTE]: dist } });
    this.manifest = readFileSync(path.join(deployment.deployDir, 'remotes.json'));
    for (const [i, r] of SITE_REMOTES.entries()) {
      const port = this.ports.remotes[i] as number;
      await deployment.startRemote(
        r.name === FUZZED_REMOTE ? dist : path.join(ROOT, r.folder, 'dist'),
        port,
      );
      this.track(`remote server ${r.name} (port ${port})`);
    }
    await deployment.startSite(this.ports.site, {
      apiTarget: `http://127.0.0.1:${this.ports.mail}`,
      deploy: { token: this.token, allowedOrigins: [`http://127.0.0.1:${this.ports.allowed}`] },
    });
    this.track(`site server (port ${this.ports.site})`);

    const manifest = JSON.parse(this.manifest.toString('utf8')) as {
      remotes: { name: string; routes: { path: string }[] }[];
    };
    const served = shellPublicFolder();
    const relative = (to: string) => `/${path.relative(served, to).split(path.sep).join('/')}`;
    const publicFiles = filesUnder(served).filter(
      (f) => !f.startsWith('/server/') && !/\.(br|gz)$/.test(f),
    );
    this.site = {
      name: 'site',
      port: this.ports.site,
      known: [
        ...SHELL_PATHS,
        ...manifest.remotes.flatMap((r) => r.routes.map((route) => route.path)),
        ...publicFiles,
      ],
      secrets: [
        '/server/render.js',
        '/server/chunks.json',
        `${relative(serverBuild)}/render.js`,
        `${relative(serverBuild)}/chunks.json`,
        `${relative(deployment.deployDir)}/.deploy-token`,
        `${relative(deployment.deployDir)}/remotes.json`,
        '/.deploy-token',
        '/deploy/.deploy-token',
        '/../deploy/.deploy-token',
        `/${deployment.deployDir}/.deploy-token`,
      ],
      routes: [
        '/',
        '/remotes.json',
        '/sitemap.xml',
        '/robots.txt',
        '/_deploy/manifest',
        '/api/health',
        '/404',
      ],
      token: this.token,
      remoteNames: SITE_REMOTES.map((r) => r.name),
      allowedOrigin: `http://127.0.0.1:${this.ports.allowed}`,
      internal: `127.0.0.1:${this.ports.internal}`,
      etags: [],
    };
    const remotePort = this.ports.remotes[SITE_REMOTES.indexOf(slot)] as number;
    this.remote = {
      name: 'remote',
      port: remotePort,
      known: [
        '/',
        ...filesUnder(dist).filter(
          (f) => !f.split('/').some((s) => s.startsWith('.')) && !/\.(br|gz)$/.test(f),
        ),
      ],
      secrets: [
        '/.git/config',
        '/.env',
        '/.private/notes.txt',
        `/${remoteVersion}/.env`,
        '/../secret.txt',
        '/../dist-backup/secret.txt',
        `/${this.work}/secret.txt`,
        `/${path.relative(dist, path.join(this.work, 'dist-backup'))}/secret.txt`,
      ],
      routes: [
        `/${remoteVersion}/remoteEntry.js`,
        `/${remoteVersion}/mf-manifest.json`,
        `/${remoteVersion}/routes.json`,
      ],
      etags: [],
    };
    this.site.etags = await currentEtags(this.site, [
      '/',
      '/about',
      manifest.remotes[0]?.routes[0]?.path ?? '/contact',
      '/favicon.svg',
      ...publicFiles.filter((f) => f.endsWith('.css')).slice(0, 1),
    ]);
    this.remote.etags = await currentEtags(this.remote, this.remote.routes);
  }

  private async startMailService(): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'mail-service', 'src', 'server.ts')],
      {
        cwd: path.join(ROOT, 'mail-service'),
        env: {
          ...process.env,
          MAIL_SERVICE_PORT: String(this.ports.mail),
          DATA_DIR: path.join(this.work, 'mail-data'),
          MAILBOX_DIR: path.join(this.work, 'mailbox'),
          ALLOWED_ORIGINS: this.siteOrigins.join(','),
          TRUST_PROXY: 'loopback',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let log = '';
    child.stdout.on('data', (chunk) => (log += String(chunk)));
    child.stderr.on('data', (chunk) => (log += String(chunk)));
    this.processes.push({ name: `mail-service (port ${this.ports.mail})`, child });
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the mail-service stopped: ${log}`);
      try {
        await fetch(`http://127.0.0.1:${this.ports.mail}/api/health`);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`the mail-service did not start: ${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.processes
        .filter(({ child }) => isRunning(child))
        .filter(({ child }) => !this.deployment.children.includes(child))
        .map(
          ({ child }) =>
            new Promise((resolve) => {
              child.once('exit', resolve);
              child.kill('SIGTERM');
            }),
        ),
    );
    await this.deployment.close();
    rmSync(this.work, { recursive: true, force: true });
  }
}

/** Accept-Encoding values the conditional requests are made with (null: none sent). */
const CONDITIONAL_ENCODINGS = ['gzip, deflate, br', 'gzip', 'identity', 'br;q=0, gzip', null];

/** The ETag each path has now, per Accept-Encoding (a server may tag each coding apart). */
async function currentEtags(surface: Surface, paths: string[]): Promise<Surface['etags']> {
  const out: Surface['etags'] = [];
  for (const p of paths) {
    for (const acceptEncoding of CONDITIONAL_ENCODINGS) {
      const request =
        `GET ${p} HTTP/1.1\r\nHost: localhost:${surface.port}\r\nConnection: close\r\n` +
        (acceptEncoding === null ? '' : `Accept-Encoding: ${acceptEncoding}\r\n`) +
        '\r\n';
      const outcome = await exchange(surface.port, Buffer.from(request), {
        isHead: false,
        timeoutMs: 10_000,
      });
      if (outcome.kind !== 'answer' || outcome.answer.status !== 200)
        throw new Error(
          `GET ${p} on the ${surface.name} server did not answer 200 (${outcome.kind})`,
        );
      const etag = header(outcome.answer, 'etag');
      if (etag) out.push({ path: p, acceptEncoding, etag });
    }
  }
  return out;
}
