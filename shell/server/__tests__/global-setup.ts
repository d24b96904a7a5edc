/**
 * Before the run: the production builds the site server's tests compose pages with (the shell's,
 * and each group's for the tests that render the real groups) made current by current-builds.cjs:
 * each made again when it is missing or older than its sources. `npm test` has made them all
 * already, so nothing is built there; a fresh checkout, or a change to the shell's sources followed
 * by `npx jest`, gets builds of the sources as they are, never a stale one. No test builds
 * anything itself. Then the PostgreSQL every test takes its databases from (test-postgres.ts), on
 * a free port, its URL handed to the test files in SHELL_TEST_POSTGRES_URL. global-teardown.ts
 * stops it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { RUN_POSTGRES_VARIABLE, startPostgres, type TestPostgres } from './test-postgres';

declare global {
  var shellTestPostgres: TestPostgres | undefined;
}

export default async function globalSetup(): Promise<void> {
  // One check-and-build at a time on this checkout: the suite's two shards start together.
  const checkout = createHash('sha256').update(path.resolve(__dirname, '..', '..', '..'));
  const lock = path.join(os.tmpdir(), `site-builds-${checkout.digest('hex').slice(0, 12)}.lock`);
  execFileSync('flock', [lock, process.execPath, path.join(__dirname, 'current-builds.cjs')], {
    stdio: 'inherit',
  });
  const postgres = await startPostgres();
  globalThis.shellTestPostgres = postgres;
  process.env[RUN_POSTGRES_VARIABLE] = postgres.url;
}
