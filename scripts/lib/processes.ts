import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface ProcessSpec {
  /** Shown before each line of its output. */
  name: string;
  /** The program: Node.js when not given. */
  command?: string;
  /** Its arguments (to Node.js: a script and what it takes). */
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** How long to wait before restarting a process that stopped on its own. */
export interface Backoff {
  /** The wait before the first restart; it doubles with each quick stop after it. */
  firstMs: number;
  /** The longest wait. */
  maxMs: number;
  /** A process that ran this long before stopping starts over at `firstMs`. */
  resetAfterMs: number;
}

export const BACKOFF: Backoff = { firstMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };

/** The wait before the `quickStops`-th restart in a row (1 for the first). */
export const restartDelay = (quickStops: number, backoff: Backoff = BACKOFF): number =>
  Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, quickStops - 1));

export interface RunOptions {
  backoff?: Backoff;
  /** How long a process has to stop after SIGTERM before it is killed. */
  graceMs?: number;
}

export interface Supervisor {
  /** Stops every process (SIGTERM, then SIGKILL after the grace period), then this one. */
  stop(): void;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/**
 * Runs several Node.js processes together, the way `npm start` and `npm run dev` run the site: each
 * line of their output prefixed with its name, and a process that stops on its own started again
 * after a wait that doubles while it keeps stopping soon after its start, so that a crash brings it
 * back at once and a process that cannot start is retried without a tight loop. Ctrl-C (or
 * SIGTERM) stops them all, with SIGKILL for any still running after the grace period, and nothing
 * is restarted then.
 */
export function runTogether(
  specs: readonly ProcessSpec[],
  { backoff = BACKOFF, graceMs = 8000 }: RunOptions = {},
): Supervisor {
  let stopping = false;
  const running = new Set<ChildProcess>();
  const pending = new Set<NodeJS.Timeout>();

  function supervise(spec: ProcessSpec): void {
    const prefix = `[${spec.name}] `;
    let restarts = 0;
    let quickStops = 0;

    const start = () => {
      const startedAt = Date.now();
      const child = spawn(spec.command ?? process.execPath, spec.args, {
        cwd: spec.cwd,
        env: { ...process.env, ...spec.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      running.add(child);
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
          if (line.trim()) out.write(`${prefix}${line}\n`);
        });
      }
      let ended = false;
      const onStop = (how: string) => {
        if (ended) return;
        ended = true;
        running.delete(child);
        // Ctrl-C reaches the whole process group: a child may die of it a moment before this
        // process has run its own handler. Decide after pending signals are handled.
        setImmediate(() => {
          if (stopping) return;
          if (Date.now() - startedAt >= backoff.resetAfterMs) quickStops = 0;
          quickStops += 1;
          restarts += 1;
          const wait = restartDelay(quickStops, backoff);
          console.error(
            `${prefix}stopped (${how}); restarting in ${seconds(wait)} (restart ${restarts})`,
          );
          const timer = setTimeout(() => {
            pending.delete(timer);
            if (!stopping) start();
          }, wait);
          pending.add(timer);
        });
      };
      child.on('exit', (code, signal) => onStop(signal ?? `exit ${code}`));
      // A process that could not be started at all emits no 'exit'.
      child.on('error', (error) => {
        if (child.pid === undefined) onStop(`could not start: ${error.message}`);
      });
    };
    start();
  }

  for (const spec of specs) supervise(spec);

  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    const all = [...running];
    for (const child of all) child.kill('SIGTERM');
    setTimeout(() => {
      for (const child of running) child.kill('SIGKILL');
    }, graceMs).unref();
    void Promise.all(all.map((c) => new Promise((r) => c.once('exit', r)))).then(() =>
      process.exit(0),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { stop };
}
