/**
 * One render process, as the pool starts it: the worker's code (compiled once, worker-script.ts)
 * run with `node -e` behind the wall this machine allows (launcher.ts) and Node's permission model,
 * no environment, a heap limit, fd 3 as its channel (channel.ts: read with a bound on each line), its stderr
 * kept for the reason it ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { setPriority } from 'node:os';
import path from 'node:path';
import type { ProcessBudget } from './budget';
import { readFrames } from './channel';
import { permissionArgs } from './permissions';
import type { WorkerData } from './protocol';
import type { Logger } from '../http/logger';
import type { RenderWall } from './launcher';
import type { PartReply, RenderJob } from './protocol';
import { workerScript } from './worker-script';

/** A render sent to a process, and what waits for it. */
export interface Pending {
  job: RenderJob;
  resolve: (reply: PartReply) => void;
  reject: (error: Error) => void;
  /** Processes it was sent to: a render its process lost before starting gets one more. */
  tries: number;
}

export interface Worker {
  child: ChildProcess;
  channel: Socket;
  state: 'starting' | 'ready' | 'busy' | 'gone';
  pending?: Pending;
  started: boolean;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
  startTimer?: NodeJS.Timeout;
  stderr: string;
  /** Set when the pool ends it: why, for the renders it held. */
  ending?: Error;
  /** Ended because it was idle, not because anything went wrong. */
  idleStop?: boolean;
  /** Its slot of the group's budget is given back (once, whichever way it ended). */
  slotGiven?: boolean;
}

const STDERR_KEEP = 4000;

/** A render that ran past its time limit. */
export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}

/** A render process that broke a bound (reply size, memory) or stopped mid-render. */
export class RenderProcessError extends Error {
  override name = 'RenderProcessError';
}

export interface GroupCode {
  name: string;
  version: string;
  /** Where the build came from, for its stack traces. */
  url: string;
  /** The group's Node build, its pin already checked. */
  code(): Promise<string>;
}

export interface RenderPoolOptions {
  /** For the log: `shell`, or `<group>@<version>`. */
  name: string;
  /** A folder with the shell's Node build (`render.js`), readable by the render processes' user. */
  bundleDir: string;
  /** Absent: the shell's processes. */
  group?: GroupCode;
  /** At most this many processes. */
  size: number;
  /** Processes kept while idle; the others stop after `idleMs` without a render. */
  keep: number;
  idleMs: number;
  /** Time limit of one render, from when its process starts it. */
  timeoutMs: number;
  /** The longest reply a process may send (a page's markup and its envelope). */
  maxReplyBytes: number;
  /** Memory a process may hold (resident); its JavaScript heap gets three quarters of it. */
  memoryMb: number;
  wall: RenderWall;
  /** Scheduling priority of the processes (`nice`: 0 normal, 19 lowest). */
  niceness?: number;
  /** How long a process may take to be ready (10 s). */
  startTimeoutMs?: number;
  /** The group's budget, shared by all its versions' pools (budget.ts); none for the shell's. */
  budget?: ProcessBudget;
  /** Whether this version is live now (its pools are served first from the budget). */
  live?: () => boolean;
  log: Logger;
}

/** Starts a render process; its lines go to `on.line`, a line past the bound ends it (`on.overflow`). */
export async function spawnWorker(
  options: RenderPoolOptions,
  on: { line(line: string): void; overflow(error: RenderProcessError): void },
): Promise<Worker> {
  const script = await workerScript();
  const heapMb = Math.max(32, Math.floor(options.memoryMb * 0.75));
  const data: WorkerData = {
    renderBundle: path.join(options.bundleDir, 'render.js'),
    ...(options.group
      ? { group: { name: options.group.name, version: options.group.version } }
      : {}),
  };
  const args = [
    ...options.wall.prefix,
    ...permissionArgs([options.bundleDir]),
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${heapMb}`,
    '-e',
    script,
    JSON.stringify(data),
  ];
  const child = spawn(options.wall.command, args, {
    cwd: options.bundleDir,
    // Nothing of the site server's environment: no token, no setting a team's code could read.
    env: { NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const channel = child.stdio[3] as Socket;
  const worker: Worker = { child, channel, state: 'starting', started: false, stderr: '' };
  if (options.niceness && child.pid !== undefined) {
    try {
      setPriority(child.pid, options.niceness);
    } catch {
      // Not allowed here: the process runs at the site server's priority.
    }
  }
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    worker.stderr = (worker.stderr + chunk).slice(-STDERR_KEEP);
  });
  readFrames(channel, options.maxReplyBytes, on.line, (bytes) =>
    on.overflow(
      new RenderProcessError(
        `its reply is over ${options.maxReplyBytes} bytes (at least ${bytes}): a page that large is not served`,
      ),
    ),
  );
  channel.on('error', () => undefined);
  return worker;
}

const MAX_BACKOFF_MS = 5000;

/** The first replacement starts at once; more in a row wait 100 ms, 200 ms, ... up to 5 s. */
export const backoff = (losses: number): number =>
  losses <= 1 ? 0 : Math.min(100 * 2 ** (losses - 2), MAX_BACKOFF_MS);

export const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Resolves once the process is gone (at once if it is). */
export function exited(worker: Worker): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => worker.child.once('close', () => resolve()));
}

/** Once `worker` has been idle for `ms`, `stop` is asked whether to end it. */
export function stopWhenIdle(worker: Worker, ms: number, stop: () => void): void {
  if (worker.state !== 'ready' || worker.idleTimer) return;
  worker.idleTimer = setTimeout(() => {
    worker.idleTimer = undefined;
    if (worker.state === 'ready') stop();
  }, ms);
  worker.idleTimer.unref();
}

/** Holds the site server's process open while `alive` (a timer), and the processes' handles while `hold`. */
export class KeepAlive {
  private timer: NodeJS.Timeout | undefined;

  set(alive: boolean, workers: Iterable<Worker>, hold = alive): void {
    if (alive) this.timer ??= setInterval(() => undefined, 60_000);
    else {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    for (const worker of workers) holdHandles(worker, hold);
  }
}

/** Keeps the site server's process alive for these handles of a process, or lets it end. */
export function holdHandles(worker: Worker, hold: boolean): void {
  const handles = [worker.child, worker.channel, worker.child.stderr as unknown as Socket | null];
  for (const handle of handles) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
}

/**
 * What a process's stderr says of its end, in one line: V8's fatal error (its heap limit), else the
 * error a stack trace names, else its last line.
 */
export function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line =
    lines.find((l) => l.startsWith('FATAL ERROR')) ??
    lines.find((l) => /^\w*(Error|Exception)\b/.test(l)) ??
    lines.at(-1) ??
    '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/** Why a process is over its memory limit, or undefined while it is within it. */
export function overMemory(worker: Worker, limitMb: number): RenderProcessError | undefined {
  const pid = worker.child.pid;
  if (pid === undefined || worker.state === 'gone') return undefined;
  const mb = residentMb(pid);
  return mb !== undefined && mb > limitMb
    ? new RenderProcessError(`held ${Math.round(mb)} MB, over its limit of ${limitMb} MB`)
    : undefined;
}

/** Resident memory of a process in MB (Linux), or undefined. */
function residentMb(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
