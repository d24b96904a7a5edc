/**
 * The PostgreSQL the tests run against: one server for the run (global-setup.ts), on a port the
 * system has free, and a database of its own for each describe block (or harness), copied from
 * the server's migrated template and emptied before each test. Tests that stop the server start
 * one of their own.
 */
import { Client } from 'pg';
import {
  createDatabase as createOn,
  dropDatabase,
  forkPostgres,
  type ForkedPostgres,
} from '@site/build/testing/postgres-server';
import { openPostgres } from '../postgres';

export { dropDatabase };

/** The variable global-setup.ts hands the run's server to the test files in. */
export const TEMPLATE_URL_VARIABLE = 'MAIL_TEST_TEMPLATE_URL';

/** A server whose `url` is its migrated template database: tests copy it, or use it as it is. */
export type TestPostgres = ForkedPostgres;

/** A real PostgreSQL of its own on a free port, its database migrated (the template). */
export async function startPostgres(): Promise<TestPostgres> {
  const postgres = await forkPostgres({ database: 'mail_template' });
  const pool = openPostgres(postgres.url, { max: 1 });
  try {
    await pool.ready;
  } catch (error) {
    await postgres.stop();
    throw error;
  } finally {
    await pool.close();
  }
  return postgres;
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
export const createDatabase = (template = runTemplate()): Promise<string> =>
  createOn(template, { prefix: 'mail_test', template: new URL(template).pathname.slice(1) });

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
