/**
 * Before the run: the PostgreSQL every test file takes its databases from (stores.ts), on a free
 * port, its URL handed to the test files in MAIL_TEST_TEMPLATE_URL. global-teardown.ts stops it.
 */
import { startPostgres, TEMPLATE_URL_VARIABLE, type TestPostgres } from './stores';

declare global {
  var mailTestPostgres: TestPostgres | undefined;
}

export default async function globalSetup(): Promise<void> {
  const postgres = await startPostgres();
  globalThis.mailTestPostgres = postgres;
  process.env[TEMPLATE_URL_VARIABLE] = postgres.url;
}
