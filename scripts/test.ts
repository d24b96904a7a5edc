/**
 * `npm test`: the whole suite, runnable right after `npm install`. A production build of
 * everything, then the unit, component and server tests of every workspace and of the scripts
 * (some run the real builds: the site server's render processes, the deploy checks), then the
 * browser tests. The unit suites run two at a time (the longest first), each one's output shown
 * whole when it ends, with its time and the load. Every suite runs whatever another one found: the
 * run ends by naming each suite that failed. Only a failed build stops it, as nothing after it
 * could run.
 *
 * `--unit` (`npm run test:unit`): the unit, component and server tests alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { readArgs } from './lib/args';

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

const took = (started: number) =>
  `${Math.round((performance.now() - started) / 1000)} s, load ${os.loadavg()[0]!.toFixed(1)}`;

function step(title: string, command: string, args: string[], cwd = root): boolean {
  console.log(`\n=== ${title}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: process.env });
  if (result.status !== 0) console.error(`\n${title}: failed (${took(started)})`);
  else console.log(`\n${title}: passed (${took(started)})`);
  return result.status === 0;
}

/**
 * A suite run beside others: its output is kept and shown whole once it ends, so that two suites'
 * lines never interleave. Resolves to whether it passed.
 */
function suite({ title, command, args }: Suite): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const output: Buffer[] = [];
    const child = spawn(command, args, { cwd: root, env: process.env });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      process.stdout.write(`\n=== ${title}\n`);
      process.stdout.write(Buffer.concat(output));
      if (code === 0) console.log(`\n${title}: passed (${took(started)})`);
      else console.error(`\n${title}: failed${signal ? ` (${signal})` : ''} (${took(started)})`);
      resolve(code === 0);
    });
  });
}

interface Suite {
  title: string;
  command: string;
  args: string[];
}

/**
 * Runs the suites `lanes` at a time, in the order given (the longest first), and resolves to the
 * titles of those that failed. The unit suites mostly wait (on PostgreSQL, child processes, SMTP
 * round trips) and each runs one Jest worker, so two of them share two cores well.
 */
async function runSuites(suites: Suite[], lanes: number): Promise<string[]> {
  const queue = [...suites];
  const failures: string[] = [];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (!(await suite(next))) failures.push(next.title);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  return failures;
}

/** The workspaces with tests of their own, as npm lists them. */
function workspacesWithTests(): { name: string; location: string }[] {
  const listed = spawnSync('npm', ['query', '.workspace'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`npm query .workspace: ${listed.stderr}`);
  const workspaces = JSON.parse(listed.stdout) as {
    name: string;
    location: string;
    scripts?: Record<string, string>;
  }[];
  return workspaces.filter((w) => w.scripts?.test);
}

async function main(): Promise<void> {
  if (!unitOnly && !step('production build', 'npm', ['run', 'build'])) process.exit(1);
  // The longest first, so that the short ones fill the other lane while they run.
  const LONGEST = ['shell', 'mail-service', 'scripts'];
  const unitSuites: Suite[] = [
    ...workspacesWithTests().map(({ name, location }) => ({
      title: name,
      command: 'npm',
      args: ['run', 'test', '-w', location],
    })),
    { title: 'scripts', command: 'npx', args: ['jest', '-c', 'scripts/jest.config.cjs'] },
  ]
    .map((s) => ({ ...s, title: `unit tests: ${s.title}`, rank: LONGEST.indexOf(s.title) }))
    .sort((a, b) => (a.rank === -1 ? 99 : a.rank) - (b.rank === -1 ? 99 : b.rank));
  const unitStarted = performance.now();
  const failed = (await runSuites(unitSuites, Math.min(2, os.availableParallelism()))).map((t) =>
    t.replace(/^unit tests: /, ''),
  );
  console.log(`\nunit tests, every suite: ${took(unitStarted)}`);
  if (
    !unitOnly &&
    !step('browser tests', 'npx', ['playwright', 'test'], path.join(root, 'tests'))
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
