/**
 * What `npm start` makes before anything runs: the deploy folder of a first run, the builds that are
 * not there yet (or all of them, with --rebuild) and the live manifest written from the local
 * builds when there is none yet (or when asked, with --fresh-manifest).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SITE_REMOTES } from '@site/contracts/site';
import { EX_CONFIG } from './processes';

const root = path.join(__dirname, '..', '..');
const tsx = ['--import', 'tsx'];

const version = (folder: string): string =>
  (JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as { version: string })
    .version;

function run(title: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${title} failed`);
    process.exit(result.status ?? 1);
  }
}

/**
 * The first run's deploy folder (DEPLOY_DIR, else deploy/): made here, one level deep, so that a
 * mistyped DEPLOY_DIR is named instead of made (the site server itself never makes it).
 */
export function deployFolder(manifest: string): void {
  const dir = path.dirname(manifest);
  const refuse = (problem: string) => {
    console.error(`start: DEPLOY_DIR: ${problem}`);
    process.exit(EX_CONFIG);
  };
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) refuse(`${dir} is a file, not a folder`);
    return;
  }
  if (!existsSync(path.dirname(dir))) {
    refuse(`${dir} cannot be made: ${path.dirname(dir)} does not exist`);
  }
  // Not 0700: the cluster run's PostgreSQL, which runs as a user of its own, keeps its data in it.
  mkdirSync(dir);
  console.log(
    `deploy folder: ${path.relative(root, dir) || dir} made (the manifest the site starts from, the deploy tokens)`,
  );
}

/**
 * Builds whatever is not built yet and writes the live manifest when there is none (or when
 * asked): after the check that no site runs from this folder already.
 */
export function prepareBuilds({
  rebuild,
  freshManifest,
  manifestFile,
}: {
  rebuild: boolean;
  freshManifest: boolean;
  manifestFile: string;
}): boolean {
  // Each group's version folder is whole once its build record is written (after both of its
  // builds); the shell once its Node and browser builds are there.
  const apps = [
    ...SITE_REMOTES.map(({ folder }) => ({
      folder,
      built: existsSync(path.join(root, folder, 'dist', version(folder), 'build.json')),
    })),
    {
      folder: 'shell',
      built: ['server/render.js', 'public/index.html'].every((file) =>
        existsSync(path.join(root, 'shell', 'dist', file)),
      ),
    },
  ];
  const toBuild = apps.filter((app) => rebuild || !app.built).map((app) => app.folder);
  const reused = apps.filter((app) => !toBuild.includes(app.folder)).map((app) => app.folder);
  if (toBuild.length === apps.length && !rebuild) {
    console.log(
      `First start: building all ${apps.length} apps (${toBuild.join(', ')}), each for the browser and the server. ` +
        'That takes about 1 to 3 minutes (longer on a busy machine); later starts reuse the builds.',
    );
  } else if (toBuild.length > 0) {
    console.log(
      `building ${toBuild.join(', ')}${reused.length ? `; reusing the builds of ${reused.join(', ')}` : ''}`,
    );
  } else {
    console.log(
      `reusing the builds of ${reused.join(', ')} (npm start -- --rebuild builds them again)`,
    );
  }
  const started = Date.now();
  toBuild.forEach((folder, i) => {
    const at = Date.now();
    console.log(`[build ${i + 1}/${toBuild.length}] ${folder}…`);
    run(`the build of ${folder}`, 'npm', ['run', 'build', '-w', folder]);
    console.log(
      `[build ${i + 1}/${toBuild.length}] ${folder} built in ${((Date.now() - at) / 1000).toFixed(1)} s` +
        (i + 1 < toBuild.length
          ? ''
          : ` (all ${toBuild.length} in ${((Date.now() - started) / 1000).toFixed(0)} s)`),
    );
  });

  // The live manifest belongs to the site: deploys change it through the deploy API, and a restart
  // keeps it. It is written from the local builds only when there is none yet, or when asked.
  const write = rebuild || freshManifest || !existsSync(manifestFile);
  if (write) {
    run('writing the manifest', process.execPath, [
      ...tsx,
      path.join(root, 'scripts', 'manifest.ts'),
      '--replace',
    ]);
  }
  return write;
}
