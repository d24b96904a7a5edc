/**
 * Before the run: the PostgreSQL every test takes its databases from (test-postgres.ts), on a free
 * port, its URL handed to the test files in SHELL_TEST_POSTGRES_URL. global-teardown.ts stops it.
 */
import { RUN_POSTGRES_VARIABLE, startPostgres, type TestPostgres } from './test-postgres';

declare global {
  var shellTestPostgres: TestPostgres | undefined;
}

export default async function globalSetup(): Promise<void> {
  const postgres = await startPostgres();
  globalThis.shellTestPostgres = postgres;
  process.env[RUN_POSTGRES_VARIABLE] = postgres.url;
}
