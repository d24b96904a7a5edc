import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { requestLine } from '@site/serving/request-log';

export interface ProcessSpec {
  /** Shown before each line of its output. */
  name: string;
  /** The program: Node.js when not given. */
  command?: string;
  /** Its arguments (to Node.js: a script and what it takes). */
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  /**
   * `pino`: its output is pino's JSON lines (what log collectors read in production); shown here
   * as one human line each: time, level, message, and for warnings and errors their details.
   */
  logs?: 'pino';
  /** The user and group it runs as (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /**
   * A process group of its own: when it stops, whatever it leaves in its group is killed before it
   * is started again (nginx's workers, which would otherwise keep the port; PostgreSQL's backends,
   * which would keep its shared memory).
   */
  ownGroup?: boolean;
  /** The signal that asks it to stop (default SIGTERM; PostgreSQL's fast shutdown is SIGINT). */
  stopSignal?: NodeJS.Signals;
  /**
   * Addresses of which one must answer 200 before its first start (a load balancer waits for a
   * backend that answers, so that it never opens the site's port with nothing behind it). Asked
   * every 100 ms; a restart does not wait.
   */
  startAfterAnswer?: string[];
  /**
   * Asked to stop only once every other process has exited (a database, which the others use
   * until their last moment: a send finished, a change recorded).
   */
  stopLast?: boolean;
}

/** Resolves once one of `urls` answers 200 (each asked every `everyMs`), or `signal` aborts. */
export async function firstAnswer(
  urls: readonly string[],
  { everyMs = 100, signal }: { everyMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  for (;;) {
    signal?.throwIfAborted();
    const answered = await Promise.all(
      urls.map((url) =>
        fetch(url, { signal: AbortSignal.timeout(2000) }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status === 200 ? url : null;
          },
          () => null,
        ),
      ),
    );
    const first = answered.find((url) => url !== null);
    if (first) return first;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Kills what is left of a process group of its own (nothing when it is all gone). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Nothing left in it.
  }
}

/**
 * The exit code a process stops with when its settings are wrong (sysexits.h's EX_CONFIG): the
 * same settings would fail again, so the run stops instead of restarting it.
 */
export const EX_CONFIG = 78;

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
  /**
   * Told the processes running now whenever one starts or stops, so that a run killed with SIGKILL
   * (which takes none of them with it) can be cleared by the next (one-site.ts).
   */
  onRunning?: (children: readonly RunningChild[]) => void;
}

/** A process the supervisor runs: its pid, its name and how it is asked to stop. */
export interface RunningChild {
  pid: number;
  name: string;
  stopSignal: NodeJS.Signals;
}

export interface Supervisor {
  /** Stops every process (SIGTERM, then SIGKILL after the grace period), then this one. */
  stop(): void;
}

const seconds = (ms: number) => `${ms / 1000} s`;

/** A pino JSON line as a human one; any other line as it is. */
function pinoLines(colorize: boolean): (line: string) => string {
  const common = {
    colorize,
    singleLine: true,
    // The service logs `err` as a sentence: shown with the rest, not as a stack below the line.
    errorLikeObjectKeys: [],
    ignore: 'pid,hostname,service',
    translateTime: 'SYS:HH:MM:ss',
  };
  const brief = prettyFactory({ ...common, hideObject: true });
  const full = prettyFactory(common);
  // A request's line (either service's) as `GET /contact 200 3.1 ms`.
  const request = prettyFactory({
    ...common,
    hideObject: true,
    messageFormat: (record) => requestLine(record) ?? '',
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    try {
      const record = JSON.parse(line) as Record<string, unknown>;
      const pretty =
        typeof record.level === 'number' && record.level >= 40
          ? full
          : requestLine(record) === undefined
            ? brief
            : request;
      return pretty(record).trimEnd();
    } catch {
      return line;
    }
  };
}

/**
 * Runs several Node.js processes together, the way `npm start` and `npm run dev` run the site: each
 * line of their output prefixed with its name, and a process that stops on its own started again
 * after a wait that doubles while it keeps stopping soon after its start, so that a crash brings it
 * back at once and a process that cannot start is retried without a tight loop. A process that
 * stops on its settings (exit code 78) stops them all: a restart would fail the same way. Ctrl-C
 * (or SIGTERM, or the terminal closing) stops them all, with SIGKILL for any still running after
 * the grace period, and nothing is restarted then; should this process end any other way, it
 * takes them with it.
 */
export function runTogether(
  specs: readonly ProcessSpec[],
  { backoff = BACKOFF, graceMs = 8000, onRunning }: RunOptions = {},
): Supervisor {
  let stopping = false;
  let exitCode = 0;
  const running = new Set<ChildProcess>();
  const names = new Map<ChildProcess, string>();
  /** Children in process groups of their own, and how each is asked to stop. */
  const groups = new Set<ChildProcess>();
  const stopSignals = new Map<ChildProcess, NodeJS.Signals>();
  const told = () =>
    onRunning?.(
      [...running]
        .filter((child) => child.pid !== undefined && child.exitCode === null)
        .map((child) => ({
          pid: child.pid!,
          name: names.get(child)!,
          stopSignal: stopSignals.get(child) ?? 'SIGTERM',
        })),
    );
  const stopsLast = new Set<ChildProcess>();
  /** Children whose output may still be arriving (until their streams close). */
  const open = new Map<ChildProcess, Promise<void>>();
  const pending = new Set<NodeJS.Timeout>();
  /** First starts still waiting for an answer (`startAfterAnswer`). */
  const waits = new Set<AbortController>();
  const human = pinoLines(Boolean(process.stdout.isTTY));

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
        ...(spec.uid === undefined ? {} : { uid: spec.uid }),
        ...(spec.gid === undefined ? {} : { gid: spec.gid }),
        ...(spec.ownGroup ? { detached: true } : {}),
      });
      running.add(child);
      names.set(child, spec.name);
      if (spec.ownGroup) groups.add(child);
      if (spec.stopSignal) stopSignals.set(child, spec.stopSignal);
      if (spec.stopLast) stopsLast.add(child);
      told();
      if (restarts > 0 && child.pid !== undefined) {
        console.error(`${prefix}started again (restart ${restarts}, pid ${child.pid})`);
      }
      open.set(
        child,
        new Promise((resolve) =>
          child.once('close', () => {
            open.delete(child);
            resolve();
          }),
        ),
      );
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
          if (line.trim()) out.write(`${prefix}${spec.logs === 'pino' ? human(line) : line}\n`);
        });
      }
      let ended = false;
      const onStop = (how: string, code?: number | null) => {
        if (ended) return;
        ended = true;
        running.delete(child);
        told();
        if (spec.ownGroup) {
          // Before anything else: what it left behind goes with it.
          killGroup(child);
          groups.delete(child);
        }
        // Ctrl-C reaches the whole process group: a child may die of it a moment before this
        // process has run its own handler. Decide after pending signals are handled.
        setImmediate(() => {
          if (stopping) return;
          if (code === EX_CONFIG) {
            console.error(
              `${prefix}stopped on its settings (the lines above name each one): change them and start again; stopping everything`,
            );
            stop(EX_CONFIG);
            return;
          }
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
      child.on('exit', (code, signal) => onStop(signal ?? `exit ${code}`, code));
      // A process that could not be started at all emits no 'exit'.
      child.on('error', (error) => {
        if (child.pid === undefined) onStop(`could not start: ${error.message}`);
      });
    };
    if (!spec.startAfterAnswer?.length) {
      start();
      return;
    }
    console.log(`${prefix}waiting for ${spec.startAfterAnswer.join(' or ')} to answer`);
    const waiting = new AbortController();
    waits.add(waiting);
    firstAnswer(spec.startAfterAnswer, { signal: waiting.signal }).then(
      (url) => {
        waits.delete(waiting);
        if (stopping) return;
        console.log(`${prefix}${url} answered: starting`);
        start();
      },
      () => waits.delete(waiting),
    );
  }

  function stop(code = 0): void {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    for (const waiting of waits) waiting.abort();
    waits.clear();
    const ask = (child: ChildProcess) => child.kill(stopSignals.get(child) ?? 'SIGTERM');
    const first = [...running].filter((child) => !stopsLast.has(child));
    for (const child of first) ask(child);
    void Promise.all(first.map((child) => open.get(child))).then(() => {
      for (const child of running) if (stopsLast.has(child)) ask(child);
    });
    setTimeout(() => {
      for (const child of running) child.kill('SIGKILL');
      for (const child of groups) killGroup(child);
    }, graceMs).unref();
    // Once every child has exited and its last lines (how it shut down) are shown.
    void Promise.all(open.values()).then(() => process.exit(exitCode));
  }

  // Before the first process starts: a signal that arrives while they start stops them all.
  const onSignal = () => stop();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  for (const spec of specs) supervise(spec);
  // An error in this process, or process.exit() elsewhere, must not leave a child running.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
    for (const child of groups) killGroup(child);
  });
  return { stop: () => stop() };
}
