/**
 * `npm test`: the whole suite, runnable right after `npm install`. A production build of
 * everything, then the unit, component and server tests of every workspace and of the scripts
 * (some run the real builds: the site server's render processes, the deploy checks), then the
 * browser tests. The unit suites run three at a time on two cores (the longest first), each one's
 * output shown whole when it ends, with its time and the load. Every suite runs whatever another
 * one found: the run ends by naming each suite that failed. Only a failed build stops it, as
 * nothing after it could run.
 *
 * `--unit` (`npm run test:unit`): the unit, component and server tests alone.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { readArgs } from './lib/args';
import { BUILD_RECORD_VARIABLE, noBrowserEnvironment } from './lib/no-browser';
import { UNIT_LANES, runInLanes, took, workspacesWith, type Command } from './lib/lanes';

const root = path.join(__dirname, '..');
const unitOnly = (() => {
  try {
    return readArgs(process.argv.slice(2), { unit: { type: 'boolean' } }).unit ?? false;
  } catch (error) {
    console.error(
      `npm test: ${error instanceof Error ? error.message : String(error)} (it takes --unit)`,
    );
    process.exit(2);
  }
})();

function step(
  title: string,
  command: string,
  args: string[],
  cwd = root,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  console.log(`\n=== ${title}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env });
  if (result.status !== 0) console.error(`\n${title}: failed (${took(started)})`);
  else console.log(`\n${title}: passed (${took(started)})`);
  return result.status === 0;
}

async function main(): Promise<void> {
  // The build runs where no browser can be found, recording whether anything looked for one:
  // the browser test build-without-browser.spec.ts reads the record.
  const noBrowser = unitOnly
    ? undefined
    : noBrowserEnvironment(path.join(root, 'tests', '.tmp', 'no-browser-build'));
  if (noBrowser && !step('production build', 'npm', ['run', 'build'], root, noBrowser.env)) {
    process.exit(1);
  }
  // The longest first, so that the short ones fill the other lanes while they run. The site
  // server's suite, the longest by far, runs as two halves (Jest's shards), each a lane of its own.
  const LONGEST = ['shell (1 of 2)', 'shell (2 of 2)', 'mail-service', 'scripts'];
  const rank = (name: string) => (LONGEST.includes(name) ? LONGEST.indexOf(name) : LONGEST.length);
  const suites = [
    ...workspacesWith(root, 'test').flatMap(({ name, location }) =>
      name === 'shell'
        ? [1, 2].map((n) => ({
            name: `shell (${n} of 2)`,
            command: 'npm',
            args: ['run', 'test', '-w', location, '--', `--shard=${n}/2`],
          }))
        : [{ name, command: 'npm', args: ['run', 'test', '-w', location] }],
    ),
    { name: 'scripts', command: 'npx', args: ['jest', '-c', 'scripts/jest.config.cjs'] },
  ].sort((a, b) => rank(a.name) - rank(b.name));
  const unitSuites: Command[] = suites.map(({ name, command, args }) => ({
    title: `unit tests: ${name}`,
    command,
    args,
    cwd: root,
  }));
  const unitStarted = performance.now();
  const failed = await runInLanes(unitSuites, UNIT_LANES);
  console.log(`\nunit tests, every suite: ${took(unitStarted)}`);
  if (
    noBrowser &&
    !step('browser tests', 'npx', ['playwright', 'test'], path.join(root, 'tests'), {
      ...process.env,
      [BUILD_RECORD_VARIABLE]: noBrowser.log,
    })
  ) {
    failed.push('browser tests');
  }
  if (failed.length > 0) {
    console.error(`\nfailed: ${failed.join(', ')}`);
    process.exit(1);
  }
  console.log(`\n${unitOnly ? 'unit tests' : 'every suite'}: passed`);
}

void main();
