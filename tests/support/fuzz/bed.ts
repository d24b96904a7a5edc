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
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SHELL_PATHS, SITE_REMOTES } from '@site/contracts/site';
import { ROOT, TestDeployment, isRunning } from '../deployment';
import { freshDatabase } from '../database';
import { filesUnder, firstBytes, shellPublicFolder, shellServerBuild, version } from './builds';
import { currentEtags } from './etags';
import type { Canary } from './oracle';
import { freePorts, type Ports } from './ports';
import type { Surface } from './surface';

/** The remote whose build is copied, fuzzed and planted with secrets. */
const FUZZED_REMOTE = 'data';

const canaryText = (what: string) => `canary-${randomBytes(12).toString('hex')}-${what}`;

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
    // Every page once before the run: the generated requests try how the server reads requests,
    // and a group's first page (its render processes starting) is the start-up tests' concern.
    await currentEtags(this.site, [
      ...new Set(manifest.remotes.flatMap((r) => r.routes.map((route) => route.path))),
    ]);
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
    const databaseUrl = await freshDatabase('fuzz_mail');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'mail-service', 'src', 'server.ts')],
      {
        cwd: path.join(ROOT, 'mail-service'),
        env: {
          ...process.env,
          MAIL_SERVICE_PORT: String(this.ports.mail),
          DATABASE_URL: databaseUrl,
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
