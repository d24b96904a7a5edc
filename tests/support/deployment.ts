/**
 * Deployments the browser tests make of their own: a site server with its own deploy folder,
 * remote hosts and a mail-service on ports of their own, and Playwright's `test` with one per test.
 * A team's next version and its commands: team-build.ts, team-commands.ts.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { promisify, isDeepStrictEqual } from 'node:util';
import type { Server, Socket } from 'node:net';
import os from 'node:os';
import readline from 'node:readline';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { SMTP_PORT } from './smtp';
import pg from 'pg';
import { freshDatabase } from './database';

export const ROOT = path.resolve(__dirname, '..', '..');

/** A log line as a person reads it: the message of a JSON (pino) line, any other line as it is. */
function readableLine(line: string): string {
  try {
    const { msg } = JSON.parse(line) as { msg?: unknown };
    return typeof msg === 'string' ? msg : line;
  } catch {
    return line;
  }
}

/** Whether a process has not stopped: one killed by a signal has no exit code, but has stopped. */
export const isRunning = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null;

/** A site (shell + its own deploy folder) and remote servers started by a test, on their own ports. */
export class TestDeployment {
  readonly deployDir = mkdtempSync(path.join(os.tmpdir(), 'site-deploy-'));
  /** Other folders this deployment made (a mail-service's outbox), removed with it. */
  private folders: string[] = [];
  private servers: Server[] = [];
  /** The connections each server of this deployment has accepted, closed with it. */
  private sockets = new Map<Server, Set<Socket>>();
  /** The processes this deployment started, in order: a test can see whether one has stopped. */
  readonly children: ChildProcess[] = [];
  /** What the servers started by this deployment have logged. */
  siteLog = '';
  /** The site servers that share this deployment's database (not one a test gave them). */
  private sharedSites: { url: string; child: ChildProcess }[] = [];
  private databaseUrl: Promise<string> | undefined;

  /**
   * This deployment's control plane: a database of its own on the run's PostgreSQL, made when
   * first asked for. Every site server of the deployment shares it, as replicas do, unless a test
   * gives one a `DATABASE_URL` of its own.
   */
  database(): Promise<string> {
    this.databaseUrl ??= freshDatabase('site');
    return this.databaseUrl;
  }

  /** Runs `sql` on this deployment's database. */
  private async query<Row extends pg.QueryResultRow>(sql: string): Promise<Row[]> {
    const client = new pg.Client({ connectionString: await this.database() });
    await client.connect();
    try {
      return (await client.query<Row>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  /** The live manifest as the control plane stores it (its exact text), or undefined before any. */
  async storedManifest(): Promise<string | undefined> {
    const [row] = await this.query<{ body: string }>(
      'SELECT v.body FROM live_manifest l JOIN manifest_versions v ON v.version = l.version',
    );
    return row?.body;
  }

  /**
   * Everything the control plane keeps about deploys, each row as JSON text: the history and the
   * deploy tokens' records (what an operator's backup of the database would hold).
   */
  async storedRecords(): Promise<string> {
    const rows = await this.query<{ row: string }>(
      `SELECT row_to_json(h)::text AS row FROM manifest_history h
       UNION ALL SELECT row_to_json(t)::text FROM deploy_tokens t`,
    );
    return rows.map((r) => r.row).join('\n');
  }

  /**
   * Starts a site server (the built shell, this deployment's manifest) as its own process, the way
   * it runs when deployed. Its log is kept in `siteLog`.
   */
  async startSite(
    port: number,
    options: {
      apiTarget?: string;
      renderTimeoutMs?: number;
      deploy?: { token: string; allowedOrigins: string[] };
      /** The site's TRUST_PROXY (default: none). */
      trustProxy?: string;
      /** More settings, as environment variables. */
      env?: Record<string, string>;
    } = {},
  ): Promise<string> {
    const url = `http://localhost:${port}`;
    const shared = !options.env?.['DATABASE_URL'];
    const settings: Record<string, string> = {
      PORT: String(port),
      SITE_URL: url,
      DEPLOY_DIR: this.deployDir,
      ...(shared ? { DATABASE_URL: await this.database() } : {}),
      MAIL_SERVICE_URL: options.apiTarget ?? 'http://127.0.0.1:3005',
      RENDER_TIMEOUT_MS: String(options.renderTimeoutMs ?? 3000),
      RENDER_WORKERS: '1',
      ...(options.trustProxy ? { TRUST_PROXY: options.trustProxy } : {}),
      ...options.env,
      ...(options.deploy
        ? {
            DEPLOY_TOKEN: options.deploy.token,
            DEPLOY_ALLOWED_ORIGINS: options.deploy.allowedOrigins.join(','),
          }
        : {}),
    };
    const child = await this.run(
      [path.join(ROOT, 'shell', 'server', 'main.ts')],
      settings,
      `${url}/favicon.svg`,
    );
    if (shared) this.sharedSites.push({ url, child });
    return url;
  }

  /**
   * Starts a site server on `port` whose manifest places the remote `name` at `remotePort`, where
   * nothing listens yet: the remote's host is down. Returns the site's URL and `restore`, which
   * starts the remote's build there.
   */
  async startSiteWithRemoteDown(
    port: number,
    name: string,
    remotePort: number,
  ): Promise<{ site: string; restore: () => Promise<void> }> {
    const folder = SITE_REMOTES.find((r) => r.name === name)?.folder;
    if (!folder) throw new Error(`no remote named ${name}`);
    const site = await this.startSite(port);
    await this.writeManifest({ urls: { [name]: `http://localhost:${remotePort}` } });
    const restore = () => this.startRemote(path.join(ROOT, folder, 'dist'), remotePort);
    return { site, restore };
  }

  /** Runs a TypeScript entry point as its own process until `readyUrl` answers. */
  private async run(
    args: string[],
    env: Record<string, string>,
    readyUrl: string,
  ): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      readline
        .createInterface({ input: stream, crlfDelay: Infinity })
        .on('line', (line) => (this.siteLog += `${readableLine(line)}\n`));
    }
    this.children.push(child);
    // A process that stops says so in the log, whoever stopped it: a failure shows why a port
    // stopped answering.
    child.once('exit', (code, signal) => {
      this.siteLog += `${path.basename(args[0]!)} (port ${env['PORT'] ?? env['MAIL_SERVICE_PORT'] ?? args.at(-1)}) exited: ${signal ?? code}\n`;
    });
    // A site server starts its render processes before it listens: on a machine busy with the
    // other tests that can take a while. It is waited for, not raced: a process that stops fails
    // at once, one that never answers fails after a minute.
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args[0]} stopped: ${this.siteLog}`);
      try {
        await fetch(readyUrl);
        return child;
      } catch {
        if (Date.now() > deadline) throw new Error(`${args[0]} did not start: ${this.siteLog}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /**
   * Starts a mail-service of this deployment's own on `port` (its outbox in a database of its own,
   * delivering to the browser tests' SMTP server), taking messages from `siteOrigin`.
   */
  async startMailService(
    port: number,
    siteOrigin: string,
    env: Record<string, string> = {},
  ): Promise<string> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'site-mail-'));
    this.folders.push(dataDir);
    await this.run(
      [path.join(ROOT, 'mail-service', 'src', 'server.ts')],
      {
        MAIL_SERVICE_PORT: String(port),
        DATABASE_URL: await freshDatabase('mail'),
        DATA_DIR: dataDir,
        MAILBOX_DIR: path.join(dataDir, 'mailbox'),
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        ALLOWED_ORIGINS: siteOrigin,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'warn',
        ...env,
      },
      `http://127.0.0.1:${port}/api/health`,
    );
    return `http://127.0.0.1:${port}`;
  }

  /** Serves a remote's build folder on a port, as its own process (its static host). */
  async startRemote(dist: string, port: number): Promise<void> {
    await this.run(
      [path.join(ROOT, 'scripts', 'serve-remote.ts'), '--dist', dist, '--port', String(port)],
      {},
      `http://localhost:${port}/`,
    );
  }

  /**
   * Writes this deployment's manifest from the remotes' builds (`scripts/manifest.ts`) and makes it
   * live as `npm start --fresh-manifest` does (`local-start.ts`, a site-server command: a publish
   * with a 'seed' history entry per group it changes). Resolves once every running site server of
   * this deployment serves it: a site hears of the change shortly after it is made, not at once.
   */
  async writeManifest(options: {
    versions?: Record<string, string>;
    dists?: Record<string, string>;
    urls?: Record<string, string>;
  }): Promise<void> {
    const env: Record<string, string> = {};
    for (const [name, url] of Object.entries(options.urls ?? {}))
      env[`REMOTE_${name.toUpperCase()}_URL`] = url;
    const args = ['--out', path.join(this.deployDir, 'remotes.json')];
    for (const [name, v] of Object.entries(options.versions ?? {}))
      args.push('--version', `${name}=${v}`);
    for (const [name, d] of Object.entries(options.dists ?? {}))
      args.push('--dist', `${name}=${d}`);
    await run([path.join(ROOT, 'scripts', 'manifest.ts'), ...args], env);
    await this.publishManifestFile();
  }

  /**
   * Makes the deploy folder's `remotes.json` live on this deployment's database; rejects with the
   * command's own words when the control plane refuses it.
   */
  async publishManifestFile(): Promise<void> {
    await run(
      [path.join(ROOT, 'shell', 'server', 'control-plane', 'local-start.ts'), '--fresh-manifest'],
      {
        DATABASE_URL: await this.database(),
        DEPLOY_DIR: this.deployDir,
      },
    );
    const written = JSON.parse(
      readFileSync(path.join(this.deployDir, 'remotes.json'), 'utf8'),
    ) as unknown;
    const running = this.sharedSites.filter(({ child }) => isRunning(child));
    await Promise.all(running.map(({ url }) => this.servesManifest(url, written)));
  }

  /** Resolves once `site` serves `manifest` as its live manifest; throws after 10 s. */
  private async servesManifest(site: string, manifest: unknown): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const served = await fetch(`${site}/remotes.json`).then(
        (response) => response.json() as Promise<unknown>,
        () => undefined,
      );
      if (isDeepStrictEqual(served, manifest)) return;
      if (Date.now() > deadline)
        throw new Error(`${site} did not serve the manifest published 10 s ago: ${this.siteLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Listens with `server` (an HTTP server, or a bare TCP one) on `port`, until `stop` or `close`. */
  listen(server: Server, port: number): Promise<void> {
    const sockets = new Set<Socket>();
    this.sockets.set(server, sockets);
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.servers.push(server);
        resolve();
      });
    });
  }

  async stop(server: Server): Promise<void> {
    this.servers = this.servers.filter((s) => s !== server);
    // A server that never answers keeps its connections open: they are ended here, not awaited.
    for (const socket of this.sockets.get(server) ?? []) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers].map((s) => this.stop(s)));
    await Promise.all(this.children.map(endProcess));
    rmSync(this.deployDir, { recursive: true, force: true });
    for (const folder of this.folders) rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The changes of a deploy history made since the site started: the entries the control plane
 * wrote when it was first filled from the deploy folder (action 'seed') left out.
 */
export const changesOf = <Entry extends { action?: unknown }>(history: unknown): Entry[] =>
  (history as Entry[]).filter((entry) => entry.action !== 'seed');

/** Runs a TypeScript command to its end; rejects with what it printed when it fails. */
async function run(args: string[], env: Record<string, string>): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(args[0]!)} failed: ${stderr ?? ''}${stdout ?? ''}`, {
      cause: error,
    });
  }
}

/** Playwright's `test`, with a `deployment` of the test's own, closed when the test ends. */
export const test = base.extend<{ deployment: TestDeployment }>({
  // Playwright reads what a fixture needs from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  deployment: async ({}, runTest) => {
    const deployment = new TestDeployment();
    await runTest(deployment);
    await deployment.close();
  },
});

/** Stops a process a test started, if it still runs: SIGTERM, and SIGKILL after 15 s. */
export function endProcess(child: ChildProcess | undefined): Promise<unknown> {
  if (!child || !isRunning(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
    // A process that does not stop within 15 s is stopped for it.
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}
