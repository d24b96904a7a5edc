/**
 * The PostgreSQL the site server's tests run against: one server for the run, started by
 * global-setup.ts on a port the system has free, its URL handed to the test files in
 * SHELL_TEST_POSTGRES_URL; each test takes a new, empty database of its own on it
 * (`freshDatabase()`). Tests that stop or pause their server start one of their own
 * (`startPostgres()`, again on a free port). No jest globals here: global-setup.ts runs it in
 * Jest's parent process.
 */
import pg from 'pg';
import {
  createDatabase,
  forkPostgres,
  type ForkedPostgres,
} from '@site/build/testing/postgres-server';

/** The variable global-setup.ts hands the run's server to the test files in. */
export const RUN_POSTGRES_VARIABLE = 'SHELL_TEST_POSTGRES_URL';

export type TestPostgres = ForkedPostgres;

/** A real PostgreSQL of the caller's own, on a free port. */
export const startPostgres = (): Promise<TestPostgres> => forkPostgres();

/** The run's server (global-setup.ts). */
function runServer(): string {
  const url = process.env[RUN_POSTGRES_VARIABLE];
  if (!url) {
    throw new Error(
      `no test PostgreSQL: ${RUN_POSTGRES_VARIABLE} is unset (jest.config.cjs's globalSetup starts it)`,
    );
  }
  return url;
}

/**
 * A new, empty database on the run's server (or on the server at `server`); resolves to its URL.
 * Its name is random: test files share the server, and each file's module state starts afresh.
 */
export const freshDatabase = (server = runServer()): Promise<string> =>
  createDatabase(server, { prefix: 'site_test' });

/** Every row of `table` in the database at `url`, as JSON text: what is kept there, verbatim. */
export async function tableText(url: string, table: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return JSON.stringify((await client.query(`SELECT * FROM ${table}`)).rows);
  } finally {
    await client.end();
  }
}
