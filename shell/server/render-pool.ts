/**
 * The site server's render processes. Each page is rendered in a child process that runs the
 * remotes' code with the least the code needs: no environment, no file but the shell's server
 * build, no network, no process or thread of its own (render-worker.ts). The pool is the trusted
 * side: it fetches the remotes' files for the processes (with the site server's `fetchFile`),
 * checks the pin of each Node build before a process gets it, and stops a render that runs past
 * its limit by killing its process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { RemoteDeployment } from '@site/contracts';
import { parseWorkerMessage } from './render/messages';
import { permissionArgs } from './render/permissions';
import { REMOTE_FILES, SERVER_BUILD, remoteFileUrl } from './render/remote-urls';
import { checkServerPin } from './render/server-pin';
import { workerScript } from './render/worker-script';
import type {
  FileRequest,
  FromWorker,
  RemoteRef,
  RenderJob,
  RenderReply,
  ToWorker,
  WorkerData,
} from './render-types';

export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}

export interface RenderPoolOptions {
  /** The shell's server build folder, with `render.js`: the only files a render process reads. */
  shellServerDir: string;
  /** How many render processes. */
  size: number;
  /** Time limit of one render, counted from when its process starts it. */
  timeoutMs: number;
  /**
   * Fetches a file of a remote's version folder for a render process. `remote` is the pool's own
   * copy of the manifest entry, never the process's word. The pool has already checked that `url`
   * is one of that remote's files; the site server checks the origin, redirects and size.
   */
  fetchFile: (url: string, remote: RemoteDeployment) => Promise<string>;
  /** How long a render process may take to load the shell's build (10 s). */
  startTimeoutMs?: number;
  /** Where a process that stopped is reported (stderr). */
  log?: (message: string) => void;
}

interface Pending {
  job: RenderJob;
  resolve: (reply: RenderReply) => void;
  reject: (error: Error) => void;
  /** How many processes it was sent to: a render gets one more try after its process is lost. */
  tries: number;
  /** Until its process says it started it. */
  ackTimer?: NodeJS.Timeout;
  /** Its time limit, from when it started. */
  timer?: NodeJS.Timeout;
}

interface Slot {
  child: ChildProcess | null;
  state: 'starting' | 'ready' | 'waiting';
  /** The renders sent to its process. */
  jobs: Map<number, Pending>;
  /** Processes lost in a row, for the backoff; a completed render ends the row. */
  failures: number;
  /** The end of the process's stderr, for the reason it stopped. */
  stderr: string;
  startTimer?: NodeJS.Timeout;
  respawnTimer?: NodeJS.Timeout;
}

const STDERR_KEEP = 4000;
const START_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 5000;

/** The first replacement starts at once; more in a row wait 100 ms, 200 ms, ... up to 5 s. */
const backoff = (failures: number): number =>
  failures <= 1 ? 0 : Math.min(100 * 2 ** (failures - 2), MAX_BACKOFF_MS);

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const sameRemote = (a: RemoteRef, b: RemoteRef): boolean =>
  a.name === b.name && a.version === b.version && a.entry === b.entry;

export class RenderPool {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private readonly startTimeoutMs: number;
  private readonly log: (message: string) => void;
  private readonly everReady = new Set<Slot>();
  private readonly warm: Promise<void>;
  private settleWarm!: (error?: Error) => void;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new Error(`a render pool needs at least one process (size ${options.size})`);
    }
    if (!(options.timeoutMs > 0)) {
      throw new Error(`timeoutMs must be positive (${options.timeoutMs})`);
    }
    this.startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    this.log = options.log ?? ((line) => console.error(line));
    this.warm = new Promise<void>((resolve, reject) => {
      let settled = false;
      this.settleWarm = (error) => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve();
      };
    });
    // Whoever never asks for ready() still hears of a failed start from render().
    this.warm.catch(() => undefined);
    this.slots = Array.from({ length: options.size }, () => ({
      child: null,
      state: 'starting' as const,
      jobs: new Map<number, Pending>(),
      failures: 0,
      stderr: '',
    }));
    for (const slot of this.slots) void this.start(slot);
  }

  /**
   * Resolves when every render process has loaded the shell's server build; rejects with the
   * process's stderr when one could not.
   */
  ready(): Promise<void> {
    return this.warm;
  }

  render(job: Omit<RenderJob, 'id'>): Promise<RenderReply> {
    if (this.closed) return Promise.reject(new Error('the render pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ }, resolve, reject, tries: 0 });
      this.dispatch();
    });
  }

  /** Kills every render process and waits until they are gone; pending renders are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new Error('the render pool is closed');
    this.settleWarm(error);
    for (const pending of this.queue.splice(0)) pending.reject(error);
    const exits: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      clearTimeout(slot.startTimer);
      clearTimeout(slot.respawnTimer);
      for (const pending of slot.jobs.values()) {
        this.clearTimers(pending);
        pending.reject(error);
      }
      slot.jobs.clear();
      const child = slot.child;
      slot.child = null;
      if (child && child.exitCode === null && child.signalCode === null) {
        exits.push(new Promise((resolve) => child.once('close', resolve)));
        // An idle process is not holding the site server's process open: waiting for it must.
        child.ref();
        child.kill('SIGKILL');
      }
    }
    await Promise.all(exits);
  }

  private async start(slot: Slot): Promise<void> {
    slot.state = 'starting';
    slot.stderr = '';
    let dir: string;
    let args: string[];
    try {
      // The real path: the permission model compares the paths a process opens once resolved.
      dir = await realpath(this.options.shellServerDir);
      const data: WorkerData = { renderBundle: path.join(dir, 'render.js') };
      args = [...permissionArgs([dir]), '-e', await workerScript(), JSON.stringify(data)];
    } catch (error) {
      this.lost(slot, `could not be started: ${message(error)}`);
      return;
    }
    if (this.closed) return;
    const child = spawn(process.execPath, args, {
      cwd: dir,
      // Nothing of the site server's environment: no token, no setting a remote could read.
      env: { NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    slot.child = child;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      slot.stderr = (slot.stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on('message', (raw: unknown) => this.received(slot, child, raw));
    child.on('error', (error) => {
      if (slot.child === child) this.lost(slot, `could not be started: ${error.message}`);
    });
    // 'close', not 'exit': by then stderr has been read to its end.
    child.on('close', (code, signal) => {
      if (slot.child === child) {
        this.lost(slot, signal ? `was stopped by ${signal}` : `exited with code ${code}`);
      }
    });
    slot.startTimer = setTimeout(() => {
      if (slot.child === child) {
        this.lost(slot, `did not load the shell's build within ${this.startTimeoutMs} ms`);
      }
    }, this.startTimeoutMs);
    this.hold();
  }

  private received(slot: Slot, child: ChildProcess, raw: unknown): void {
    if (slot.child !== child) return;
    const msg = parseWorkerMessage(raw);
    if (msg) this.handle(slot, child, msg);
  }

  private handle(slot: Slot, child: ChildProcess, msg: FromWorker): void {
    switch (msg.type) {
      case 'ready': {
        if (slot.state !== 'starting') return;
        clearTimeout(slot.startTimer);
        slot.state = 'ready';
        this.everReady.add(slot);
        if (this.everReady.size === this.slots.length) this.settleWarm();
        this.dispatch();
        return;
      }
      case 'started': {
        const pending = slot.jobs.get(msg.id);
        if (!pending || pending.timer) return;
        clearTimeout(pending.ackTimer);
        pending.timer = setTimeout(() => this.timedOut(slot, pending), this.options.timeoutMs);
        return;
      }
      case 'done':
      case 'failed': {
        const id = msg.type === 'done' ? msg.reply.id : msg.id;
        const pending = slot.jobs.get(id);
        if (!pending) return;
        slot.jobs.delete(id);
        this.clearTimers(pending);
        if (msg.type === 'done') {
          slot.failures = 0;
          pending.resolve(msg.reply);
        } else {
          pending.reject(new Error(msg.error));
        }
        this.hold();
        return;
      }
      case 'file':
        void this.serveFile(slot, child, msg);
        return;
    }
  }

  /**
   * Answers a process's request for a remote's file. Only the files of the remotes of the renders
   * it is running, as the pool's own manifests list them: the process may run a remote's code,
   * and that code could ask for anything.
   */
  private async serveFile(slot: Slot, child: ChildProcess, request: FileRequest): Promise<void> {
    let answer: ToWorker;
    try {
      const remote = this.remoteOf(slot, request.remote);
      if (!remote) {
        throw new Error(`${request.url} is not a file of a remote in this process's renders`);
      }
      const file = REMOTE_FILES.find((f) => remoteFileUrl(remote, f) === request.url);
      if (!file) throw new Error(`${request.url} is not a file a render may load`);
      const text = await this.options.fetchFile(request.url, remote);
      // The check is made here, on the trusted side, before the process has the text.
      if (file === SERVER_BUILD) checkServerPin(request.url, remote, text);
      answer = { type: 'file', requestId: request.requestId, text };
    } catch (error) {
      answer = { type: 'file', requestId: request.requestId, error: message(error) };
    }
    if (slot.child === child && child.connected) child.send(answer, () => undefined);
  }

  private remoteOf(slot: Slot, ref: RemoteRef): RemoteDeployment | undefined {
    for (const { job } of slot.jobs.values()) {
      const remote = job.manifest.remotes.find((r) => sameRemote(r, ref));
      if (remote) return remote;
    }
    return undefined;
  }

  private timedOut(slot: Slot, pending: Pending): void {
    slot.jobs.delete(pending.job.id);
    this.clearTimers(pending);
    const reason = `rendering ${pending.job.path} took over ${this.options.timeoutMs} ms`;
    pending.reject(new RenderTimeoutError(reason));
    this.lost(slot, `was stopped: ${reason}`);
  }

  /** Sends queued renders to the ready process with the fewest. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot: Slot | undefined;
      for (const s of this.slots) {
        if (s.state === 'ready' && s.child && (!slot || s.jobs.size < slot.jobs.size)) slot = s;
      }
      const child = slot?.child;
      if (!slot || !child) break;
      const pending = this.queue.shift() as Pending;
      pending.tries += 1;
      slot.jobs.set(pending.job.id, pending);
      // A process that does not even start a render within twice the limit is stuck (a render
      // loops without yielding) or no longer its own: it is replaced.
      const target = slot;
      pending.ackTimer = setTimeout(() => {
        if (target.child === child) {
          this.lost(target, `did not start a render within ${2 * this.options.timeoutMs} ms`);
        }
      }, 2 * this.options.timeoutMs);
      const msg: ToWorker = { type: 'render', job: pending.job };
      child.send(msg, () => undefined);
    }
    this.hold();
  }

  /**
   * A slot's process is gone or is being killed: its renders go back to the queue for one more
   * try (or fail), and a new process starts after the backoff.
   */
  private lost(slot: Slot, reason: string): void {
    const child = slot.child;
    slot.child = null;
    clearTimeout(slot.startTimer);
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (this.closed) return;
    const stderr = slot.stderr.trim();
    const error = new Error(`a render process ${reason}${stderr ? `: ${stderr}` : ''}`);
    if (slot.state !== 'ready') {
      this.settleWarm(error);
      // Nothing can take the queued renders now: they fail rather than wait for a start that
      // may never come.
      if (!this.slots.some((s) => s.state === 'ready')) {
        for (const pending of this.queue.splice(0)) pending.reject(error);
      }
    }
    const again: Pending[] = [];
    for (const pending of slot.jobs.values()) {
      this.clearTimers(pending);
      if (pending.tries >= 2) pending.reject(error);
      else again.push(pending);
    }
    slot.jobs.clear();
    this.queue.unshift(...again);
    slot.failures += 1;
    slot.state = 'waiting';
    const delay = backoff(slot.failures);
    this.log(
      `render pool: a render process ${reason}${stderr ? ` (${stderr.split('\n')[0]})` : ''}; another starts in ${delay} ms`,
    );
    slot.respawnTimer = setTimeout(() => void this.start(slot), delay);
    this.dispatch();
  }

  private clearTimers(pending: Pending): void {
    clearTimeout(pending.ackTimer);
    clearTimeout(pending.timer);
    delete pending.ackTimer;
    delete pending.timer;
  }

  /**
   * Keeps the site server's process alive while a render process starts or renders, and lets it
   * end when they are idle (like any handle that is only waiting for work).
   */
  private hold(): void {
    const busy =
      this.queue.length > 0 || this.slots.some((s) => s.jobs.size > 0 || s.state !== 'ready');
    for (const slot of this.slots) {
      const child = slot.child;
      if (child) {
        // stderr is a socket (a pipe), which the stream's type does not say.
        const handles = [child, child.channel, child.stderr as unknown as Socket | null];
        for (const h of handles) {
          if (busy) h?.ref();
          else h?.unref();
        }
      }
      if (busy) slot.respawnTimer?.ref();
      else slot.respawnTimer?.unref();
    }
  }
}
