import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcessSpec {
  /** Shown before each line of its output. */
  name: string;
  /** Arguments to Node.js. */
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/**
 * Runs several Node.js processes together, the way `npm start` and `npm run dev` run the site: each
 * line of their output prefixed with its name, a process that stops reported while the others go
 * on, and Ctrl-C (or SIGTERM) passed to all of them, with SIGKILL for any still running 8 s later.
 */
export function runTogether(specs: readonly ProcessSpec[]): ChildProcess[] {
  let stopping = false;
  const children = specs.map((spec) => {
    const child = spawn(process.execPath, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `[${spec.name}] `;
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      stream.on('data', (chunk: Buffer) => {
        for (const line of String(chunk).split('\n'))
          if (line.trim()) out.write(`${prefix}${line}\n`);
      });
    }
    child.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(
          `${prefix}stopped (${signal ?? `exit ${code}`}); the other processes keep running`,
        );
      }
    });
    return child;
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    setTimeout(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      process.exit(0);
    }, 8000).unref();
    void Promise.all(
      children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))),
    ).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return children;
}
