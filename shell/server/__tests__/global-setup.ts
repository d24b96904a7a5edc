/**
 * Before the run: the shell's production build, which the site server's tests compose pages with,
 * made once when this checkout has none yet (`npm test` builds it first; `npm run test:unit` on a
 * fresh checkout finds none); then the PostgreSQL every test takes its databases from
 * (test-postgres.ts), on a free port, its URL handed to the test files in SHELL_TEST_POSTGRES_URL.
 * global-teardown.ts stops it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { RUN_POSTGRES_VARIABLE, startPostgres, type TestPostgres } from './test-postgres';

declare global {
  var shellTestPostgres: TestPostgres | undefined;
}

const SHELL = path.join(__dirname, '..', '..');

export default async function globalSetup(): Promise<void> {
  const built = ['server/render.js', 'public/index.html'].every((file) =>
    existsSync(path.join(SHELL, 'dist', file)),
  );
  if (!built) {
    console.log(
      '\nthe shell is not built yet: building it once for these tests (npm run build -w shell)',
    );
    execFileSync('npm', ['run', 'build'], { cwd: SHELL, stdio: 'inherit' });
  }
  const postgres = await startPostgres();
  globalThis.shellTestPostgres = postgres;
  process.env[RUN_POSTGRES_VARIABLE] = postgres.url;
}
