/**
 * `npm run dev`: the whole site with hot reload. Each remote runs its own webpack dev server on its
 * port (site.json), the shell's dev server on 3000 reads a development manifest that points at
 * them (`deploy/dev/remotes.json`, written again whenever a route table changes), and the
 * mail-service runs in watch mode on 3005, on an embedded PostgreSQL of the development run's own
 * (`deploy/dev/.postgres`). Ctrl-C stops everything.
 *
 * One group inside the real site, with server render: `npm run dev -w mfe-data` (dev-group.ts).
 * One group's pages alone, without the shell: `npm run dev:frame -w mfe-data`.
 */
import { watch } from 'node:fs';
import path from 'node:path';
import { SITE_REMOTES } from '@site/contracts/site';
import { runTogether } from './lib/processes';
import { databaseDir, localDatabase } from './lib/local-database';
import { oneSiteAtATime, recordChildren } from './lib/one-site';
import { buildManifest, liveManifestFile, writeManifest } from './manifest';

const root = path.join(__dirname, '..');
const manifestFile = path.join(root, 'deploy', 'dev', 'remotes.json');

async function writeDevManifest(): Promise<void> {
  await writeManifest(manifestFile, await buildManifest({ development: true }));
}

async function main(): Promise<void> {
  // One site at a time, whichever command started it (npm start records itself in the same folder).
  await oneSiteAtATime(path.dirname(liveManifestFile()), 'http://localhost:3000/', 'npm run dev');
  await writeDevManifest();
  for (const { folder } of SITE_REMOTES) {
    watch(path.join(root, folder, 'src', 'routes.json'), () => {
      writeDevManifest().then(
        () =>
          console.log(`[dev] ${folder}'s route table changed: manifest written, reload the page`),
        (error: unknown) => console.error(`[dev] ${folder}/src/routes.json: ${String(error)}`),
      );
    });
  }
  const database = await localDatabase({ dir: databaseDir(path.dirname(manifestFile)).dir });
  const webpackCli = require.resolve('webpack-cli/bin/cli.js');
  const serve = [webpackCli, 'serve', '--mode', 'development'];
  runTogether(
    [
      database.spec,
      ...SITE_REMOTES.map(({ folder }) => ({
        name: folder,
        cwd: path.join(root, folder),
        args: serve,
      })),
      { name: 'shell', cwd: path.join(root, 'shell'), args: serve },
      {
        name: 'mail-service',
        cwd: path.join(root, 'mail-service'),
        args: ['--watch', '--import', 'tsx', 'src/server.ts'],
        env: { DATABASE_URL: database.url },
        logs: 'pino',
      },
    ],
    {
      onRunning: (children) => recordChildren(path.dirname(liveManifestFile()), children),
    },
  );
  console.log('\nDevelopment site: http://localhost:3000/ (hot reload; Ctrl-C stops everything)\n');
}

main().catch((error: unknown) => {
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
