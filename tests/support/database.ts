/**
 * The browser tests' PostgreSQL: one embedded server for the whole run, started by the global setup
 * on a port from the system's ephemeral range (never one a test's site takes), and a database of its
 * own for each service a test starts, so that no test sees another's rows.
 */
import { ephemeralPort } from '@site/build/testing/ports';
import { startPostgres, type TestPostgres } from '@site/build/testing/postgres';
import { createDatabase } from '@site/build/testing/postgres-server';

/** Where the run's server is: set by the global setup, read by every worker. */
const VARIABLE = 'TEST_DATABASE_URL';

/** Starts the run's server and tells the workers where it is. */
export async function startRunDatabase(): Promise<TestPostgres> {
  const postgres = await startPostgres({ port: await ephemeralPort() });
  process.env[VARIABLE] = postgres.url;
  return postgres;
}

/** A new, empty database on the run's server (its name starts with `prefix`); resolves to its URL. */
export function freshDatabase(prefix: string): Promise<string> {
  const url = process.env[VARIABLE];
  if (!url) throw new Error(`${VARIABLE} is not set: the global setup starts the run's PostgreSQL`);
  return createDatabase(url, { prefix });
}
