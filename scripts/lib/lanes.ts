/**
 * Commands run side by side, a few at a time, each one's output kept and shown whole once it ends
 * (two commands' lines never interleave), with its time and the load average. Used by `npm test`
 * (the unit suites) and `npm run static` (format, lint, types).
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';

export interface Command {
  title: string;
  command: string;
  args: string[];
  /** Its working folder; the caller's by default. */
  cwd?: string;
}

/** How long since `started` (a `performance.now()`), with the load average now. */
export const took = (started: number): string =>
  `${Math.round((performance.now() - started) / 1000)} s, load ${os.loadavg()[0]!.toFixed(1)}`;

/** Runs one command, its output held; prints it whole when it ends and resolves to whether it passed. */
function run(
  { title, command, args, cwd }: Command,
  print: (text: string) => void,
): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const output: Buffer[] = [];
    const child = spawn(command, args, { cwd, env: process.env });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const text = Buffer.concat(output).toString('utf8');
      const verdict =
        code === 0 ? 'passed' : `failed${signal ? ` (${signal})` : ` (exit ${String(code)})`}`;
      print(
        `\n=== ${title}\n${text}${text === '' || text.endsWith('\n') ? '' : '\n'}\n${title}: ${verdict} (${took(started)})\n`,
      );
      resolve(code === 0);
    });
  });
}

/**
 * Runs the commands `lanes` at a time, in the order given (put the longest first, so the short ones
 * fill the other lanes meanwhile), and resolves to the titles of those that failed. Every command
 * runs, whatever another one found.
 */
export async function runInLanes(
  commands: readonly Command[],
  lanes: number,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<string[]> {
  const queue = [...commands];
  const failed: string[] = [];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (!(await run(next, print))) failed.push(next.title);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  return failed;
}

/** Two lanes where the machine has two cores or more. */
export const LANES = Math.min(2, os.availableParallelism());

/**
 * The unit suites, one lane more than the machine has cores (at most three): the longest wait on
 * the processes and databases they start as much as they compute (on two cores, the site server's
 * suite kept 0.9 of a core busy and the mail-service's 0.7), so a third lane fills the gaps.
 */
export const UNIT_LANES = Math.min(3, os.availableParallelism() + 1);

/** The workspaces under `root` that have the npm script `script` (`test`, `typecheck`), as npm lists them. */
export function workspacesWith(root: string, script: string): { name: string; location: string }[] {
  const listed = spawnSync('npm', ['query', '.workspace'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`npm query .workspace: ${listed.stderr}`);
  const workspaces = JSON.parse(listed.stdout) as {
    name: string;
    location: string;
    scripts?: Record<string, string>;
  }[];
  return workspaces.filter((w) => w.scripts?.[script]);
}
