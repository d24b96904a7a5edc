/**
 * The PostgreSQL the tests run against: one server for the run (global-setup.ts), on a port the
 * system has free, and a database of its own for each describe block (or harness), copied from
 * the server's migrated template and emptied before each test. Tests that stop the server start
 * one of their own.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';

/** The variable global-setup.ts hands the run's server to the test files in. */
export const TEMPLATE_URL_VARIABLE = 'MAIL_TEST_TEMPLATE_URL';

export interface TestPostgres {
  /** Its migrated template database: tests copy it (createDatabase), or use it as it is. */
  url: string;
  /** Stops the server, keeping its data (the database is down); `resume()` starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL of its own on a free port: `startPostgres` of @site/build/testing/postgres,
 * run in a process of its own (postgres-process.ts says why).
 */
export function startPostgres(): Promise<TestPostgres> {
  const child = fork(path.join(__dirname, 'postgres-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const early = () => reject(new Error('the test PostgreSQL did not start'));
    child.once('exit', early);
    child.once('message', (message: { url: string }) => {
      child.off('exit', early);
      const command = (name: 'pause' | 'resume') =>
        new Promise<void>((done, fail) => {
          child.once('message', (answer: { done?: string; error?: string }) =>
            answer.done === name ? done() : fail(new Error(`PostgreSQL: ${answer.error}`)),
          );
          child.send(name);
        });
      resolve({
        url: message.url,
        pause: () => command('pause'),
        resume: () => command('resume'),
        stop() {
          if (child.connected) child.disconnect();
          return exited;
        },
      });
    });
  });
}

/** `url` with another database name. */
const onDatabase = (url: string, name: string) => url.replace(/\/[^/]*$/, `/${name}`);

/** Runs one statement on the server's maintenance database. */
async function administer(url: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: onDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The run's server (global-setup.ts). */
function runTemplate(): string {
  const url = process.env[TEMPLATE_URL_VARIABLE];
  if (!url) {
    throw new Error(
      `no test PostgreSQL: ${TEMPLATE_URL_VARIABLE} is unset (jest.config.cjs's globalSetup starts it)`,
    );
  }
  return url;
}

/**
 * A new database, migrated, on the server of `template` (the run's server unless another is
 * given): a copy of its template database. Resolves to its URL.
 */
export async function createDatabase(template = runTemplate()): Promise<string> {
  const name = `mail_test_${randomBytes(6).toString('hex')}`;
  const source = new URL(template).pathname.slice(1);
  await administer(template, `CREATE DATABASE ${name} TEMPLATE ${source}`);
  return onDatabase(template, name);
}

/** Drops a database createDatabase made, closing whatever connections it still has. */
export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await administer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** The settings that point a service at a database: filled in before the block's first test. */
export interface TestStore {
  env: { DATABASE_URL: string };
  /** The server of the block's own (`ownServer`), to stop and start again. */
  postgres?: TestPostgres;
}

/**
 * The database for the tests of the enclosing describe block (or file), made before its first
 * test and emptied before each, so that each test starts with an empty outbox. `ownServer`: on a
 * server of the block's own, for tests that stop it (`postgres.pause()`).
 */
export function testStore({ ownServer = false }: { ownServer?: boolean } = {}): TestStore {
  const store: TestStore = { env: { DATABASE_URL: '' } };
  beforeAll(async () => {
    if (ownServer) store.postgres = await startPostgres();
    store.env = { DATABASE_URL: store.postgres?.url ?? (await createDatabase()) };
  }, 60_000);
  // DELETE rather than TRUNCATE: a few rows each, and no new files for the server to sync.
  beforeEach(() =>
    queryOn(store)(
      `DELETE FROM mail_messages; DELETE FROM mail_rate_limits; DELETE FROM mail_probe;
       DELETE FROM mail_erasures; UPDATE mail_digest SET last_sent_at = NULL, claimed_until = NULL`,
    ),
  );
  afterAll(async () => {
    if (store.postgres) await store.postgres.stop();
    else if (store.env.DATABASE_URL) await dropDatabase(store.env.DATABASE_URL);
  }, 30_000);
  return store;
}

/** Runs SQL on the store's test database, on a connection of its own, and gives back the rows. */
export const queryOn =
  (store: TestStore) =>
  async <R extends object>(sql: string, args: unknown[] = []): Promise<R[]> => {
    const client = new Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<R>(sql, args)).rows;
    } finally {
      await client.end();
    }
  };
