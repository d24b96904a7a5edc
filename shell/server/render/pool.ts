/**
 * The render processes of one kind: the shell's, or one version of one group's. The pool is the
 * trusted side. It starts its processes on demand (launcher.ts, worker.ts), gives a group's
 * processes their Node build once the site server has checked its pin, sends each process one
 * render at a time, and ends a process that breaks a bound: a render past its time limit, a reply
 * over its size limit, memory over its limit, or a failed render of a group's page (what a
 * failure leaves behind in a process is not kept). Nothing a process says is taken on its word:
 * a reply counts for the render this pool sent that process, and for this pool's group.
 */
import { frame } from './channel';
import {
  parseWorkerLine,
  type FromWorker,
  type PartReply,
  type RenderJob,
  type ToWorker,
} from './protocol';
import {
  RenderProcessError,
  RenderTimeoutError,
  KeepAlive,
  backoff,
  exited,
  holdHandles,
  message,
  lastWords,
  overMemory,
  spawnWorker,
  stopWhenIdle,
  type Pending,
  type RenderPoolOptions,
  type Worker,
} from './process';

const START_TIMEOUT_MS = 10_000;

/** The longest `warm()` waits for a pool's first process (its own bound; see below). */
export const WARM_LIMIT_MS = START_TIMEOUT_MS * 2;

export class RenderPool {
  private readonly workers = new Set<Worker>();
  private readonly queue: Pending[] = [];
  private readonly watch: NodeJS.Timeout;
  private nextId = 1;
  private closed = false;
  private retired = false;
  /** Processes lost in a row without a completed render, for the backoff. */
  private losses = 0;
  private backoffUntil = 0;
  private backoffTimer: NodeJS.Timeout | undefined;
  /** Why the last process could not start, while no process has started since. */
  private startError: Error | undefined;
  /** Keeps this process alive while renders wait for a process that is still being started. */
  private readonly keepAlive = new KeepAlive();

  constructor(private readonly options: RenderPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new Error(`a render pool needs at least one process (size ${options.size})`);
    }
    this.watch = setInterval(() => {
      for (const worker of this.workers) {
        const over = overMemory(worker, options.memoryMb);
        if (over) void this.end(worker, over);
      }
    }, 1000); // Resident memory, checked every second.
    this.watch.unref();
  }

  get name(): string {
    return this.options.name;
  }

  /** Whether nothing is queued or rendering. */
  get idle(): boolean {
    return this.queue.length === 0 && [...this.workers].every((w) => !w.pending);
  }

  /** The processes running now (for the metrics and tests). */
  get processes(): number[] {
    return [...this.workers].flatMap((w) => (w.child.pid === undefined ? [] : [w.child.pid]));
  }

  /** The processes started and ready to render (or rendering). */
  get running(): number {
    return [...this.workers].filter((w) => w.state === 'ready' || w.state === 'busy').length;
  }

  /** Starts the pool's first process and resolves once it is ready to render. */
  async warm(): Promise<void> {
    if (this.workers.size === 0) this.spawn();
    const deadline = Date.now() + (this.options.startTimeoutMs ?? START_TIMEOUT_MS) * 2;
    while (![...this.workers].some((w) => w.state === 'ready' || w.state === 'busy')) {
      if (this.startError) throw this.startError;
      if (this.closed) throw new Error(`the ${this.name} render pool is closed`);
      if (Date.now() > deadline) throw new Error(`the ${this.name} render processes did not start`);
      if (this.workers.size === 0) this.spawn();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  render(job: Omit<RenderJob, 'id'>): Promise<PartReply> {
    if (this.closed || this.retired) {
      return Promise.reject(new Error(`the ${this.name} render pool is closed`));
    }
    // A version that could not start fails its pages at once, until the backoff lets it try again.
    if (this.startError && Date.now() < this.backoffUntil && this.live() === 0) {
      return Promise.reject(this.startError);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ }, resolve, reject, tries: 0 });
      this.dispatch();
    });
  }

  /** Takes no more renders; the queued ones finish, then the processes stop. */
  retire(): void {
    this.retired = true;
    if (this.idle) void this.close();
  }

  /** Kills every process and waits until they are gone; pending renders are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watch);
    this.keepAlive.set(false, []);
    clearTimeout(this.backoffTimer);
    const error = new Error(`the ${this.name} render pool is closed`);
    for (const pending of this.queue.splice(0)) pending.reject(error);
    await Promise.all([...this.workers].map((w) => this.end(w, error)));
  }

  /** Processes starting or running. */
  private live = (): number => [...this.workers].filter((w) => w.state !== 'gone').length;

  /** The group's budget wakes the pool when it may have room for a process (budget.ts). */
  wake = (): void => this.dispatch();

  get isLive(): boolean {
    return this.options.live?.() ?? false;
  }

  /** Starts a process if the group's budget has room for it (else it wakes this pool later). */
  private spawn(): void {
    if (!this.options.budget || this.options.budget.take(this)) void this.startWorker();
  }

  private giveSlot(worker: Worker): void {
    if (!worker.slotGiven) this.options.budget?.give();
    worker.slotGiven = true;
  }

  /** Ends an idle process for another of the group's pools that waits for room; whether one was. */
  yieldIdle(): boolean {
    const idle = [...this.workers].find((w) => w.state === 'ready' && !w.ending);
    if (!idle || this.queue.length > 0) return false;
    this.stopIdle(idle, 'gave its room to another version of its group');
    return true;
  }

  private stopIdle(worker: Worker, why: string): void {
    worker.idleStop = true;
    void this.end(worker, new Error(why));
  }

  private async startWorker(): Promise<void> {
    const { options } = this;
    let worker: Worker;
    try {
      worker = await spawnWorker(options, {
        line: (line) => {
          const msg = parseWorkerLine(line);
          if (msg) this.handle(worker, msg);
        },
        overflow: (error) => void this.end(worker, error),
      });
    } catch (error) {
      this.options.budget?.give();
      this.startFailed(
        new Error(`the render process's code could not be compiled: ${message(error)}`),
      );
      return;
    }
    if (this.closed) {
      worker.child.kill('SIGKILL');
      this.giveSlot(worker);
      return;
    }
    this.workers.add(worker);
    const { child } = worker;
    child.on('error', (error) => {
      if (worker.state !== 'gone')
        void this.end(worker, new Error(`could not be started: ${error.message}`));
    });
    // 'close', not 'exit': by then stderr has been read to its end.
    child.on('close', (code, signal) => this.gone(worker, code, signal));
    const startMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    worker.startTimer = this.endAfter(
      worker,
      startMs,
      () => new Error(`was not ready within ${startMs} ms`),
    );
    if (options.group) {
      const group = options.group;
      group.code().then(
        (text) => {
          if (worker.state === 'starting')
            this.write(worker, { type: 'code', url: group.url, text });
        },
        (error: unknown) => void this.end(worker, new Error(message(error))),
      );
    }
    this.hold();
  }

  private write(worker: Worker, msg: ToWorker): void {
    if (!worker.channel.destroyed) worker.channel.write(frame(msg));
  }

  private handle(worker: Worker, msg: FromWorker): void {
    switch (msg.type) {
      case 'ready': {
        if (worker.state !== 'starting') return;
        clearTimeout(worker.startTimer);
        worker.state = 'ready';
        this.startError = undefined;
        this.dispatch();
        return;
      }
      case 'started': {
        const pending = worker.pending;
        if (!pending || pending.job.id !== msg.id || worker.started) return;
        worker.started = true;
        const { timeoutMs } = this.options;
        clearTimeout(worker.timer);
        worker.timer = this.endAfter(
          worker,
          timeoutMs,
          () => new RenderTimeoutError(`rendering ${pending.job.path} took over ${timeoutMs} ms`),
        );
        return;
      }
      case 'done':
      case 'failed': {
        const pending = worker.pending;
        const id = msg.type === 'done' ? msg.reply.id : msg.id;
        if (!pending || pending.job.id !== id) return;
        clearTimeout(worker.timer);
        worker.pending = undefined;
        worker.started = false;
        if (msg.type === 'failed') {
          pending.reject(new Error(msg.error));
        } else {
          pending.resolve(msg.reply);
        }
        const failed = msg.type === 'failed' || msg.reply.failure !== null;
        if (failed && this.options.group) {
          // Nothing of a failed render of a team's page stays: its process is replaced.
          void this.end(worker, new Error(`a render of ${pending.job.path} failed`));
          return;
        }
        this.losses = 0;
        worker.state = 'ready';
        this.dispatch();
        return;
      }
    }
  }

  /** Sends queued renders to idle processes, and starts processes while renders wait. */
  private dispatch(): void {
    if (this.closed) return;
    for (const worker of this.workers) {
      if (this.queue.length === 0) break;
      if (worker.state !== 'ready') continue;
      const pending = this.queue.shift() as Pending;
      pending.tries += 1;
      clearTimeout(worker.idleTimer);
      worker.state = 'busy';
      worker.pending = pending;
      worker.started = false;
      // A process that does not even start the render in time is stuck (its code loops between
      // renders) or no longer listens: it is ended like a render past its limit.
      const { timeoutMs } = this.options;
      worker.timer = this.endAfter(
        worker,
        timeoutMs,
        () =>
          new RenderTimeoutError(
            `the process did not start rendering ${pending.job.path} within ${timeoutMs} ms`,
          ),
      );
      this.write(worker, { type: 'render', job: pending.job });
    }
    const starting = [...this.workers].filter((w) => w.state === 'starting').length;
    if (
      this.queue.length > starting &&
      this.live() < this.options.size &&
      Date.now() >= this.backoffUntil
    ) {
      this.spawn();
    } else if (this.queue.length > 0 && this.live() === 0 && !this.backoffTimer) {
      const wait = Math.max(0, this.backoffUntil - Date.now());
      this.backoffTimer = setTimeout(() => {
        this.backoffTimer = undefined;
        this.dispatch();
      }, wait);
    }
    // Room this pool has no work for goes to the group's pools that wait for it.
    if (this.queue.length === 0 && this.options.budget?.wanted) this.yieldIdle();
    // A process beyond the ones kept stops once it has been idle for `idleMs`.
    for (const worker of this.workers) {
      stopWhenIdle(worker, this.options.idleMs, () => {
        if (this.running > this.options.keep) this.stopIdle(worker, 'was idle');
      });
    }
    if (this.retired && this.idle) void this.close();
    this.hold();
  }

  private endAfter(worker: Worker, ms: number, reason: () => Error): NodeJS.Timeout {
    return setTimeout(() => void this.end(worker, reason()), ms);
  }

  /** Ends a process: its render fails with `reason`, and it is killed. */
  private end(worker: Worker, reason: Error): Promise<void> {
    if (worker.state === 'gone' || worker.ending) return exited(worker);
    worker.ending = reason;
    if (!worker.idleStop && !this.closed) {
      this.options.log.warn(
        `render pool ${this.name}: a render process ${reason.message}; it is replaced`,
      );
    }
    const done = exited(worker);
    // An idle process is not holding the site server's process open: waiting for its end must.
    holdHandles(worker, true);
    worker.child.kill('SIGKILL');
    return done;
  }

  /** A process is gone: its render fails (or is tried once more), and the pool carries on. */
  private gone(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const wasStarting = worker.state === 'starting';
    worker.state = 'gone';
    this.workers.delete(worker);
    this.giveSlot(worker);
    clearTimeout(worker.timer);
    clearTimeout(worker.idleTimer);
    clearTimeout(worker.startTimer);
    const said = lastWords(worker.stderr);
    const how =
      worker.ending?.message ?? (signal ? `was stopped by ${signal}` : `exited with code ${code}`);
    const reason = `${how}${said ? `: ${said}` : ''}`;
    const pending = worker.pending;
    worker.pending = undefined;
    if (pending) {
      const error =
        worker.ending instanceof RenderTimeoutError || worker.ending instanceof RenderProcessError
          ? worker.ending
          : new RenderProcessError(`a render process of ${this.name} ${reason}`);
      if (!worker.started && pending.tries < 2 && !this.closed) this.queue.unshift(pending);
      else pending.reject(error);
    }
    if (this.closed) return;
    if (worker.idleStop) {
      this.dispatch();
      return;
    }
    if (!worker.ending) {
      this.options.log.warn(`render pool ${this.name}: a render process ${reason}; it is replaced`);
    }
    this.losses += 1;
    const wait = backoff(this.losses);
    this.backoffUntil = Date.now() + wait;
    if (wasStarting) {
      this.startFailed(
        new RenderProcessError(`the render processes of ${this.name} could not start: ${reason}`),
      );
    }
    this.dispatch();
  }

  /** No process could start: what waits fails now, with the reason, rather than wait on. */
  private startFailed(error: Error): void {
    this.startError = error;
    if (this.live() > 0) return;
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }

  /**
   * Keeps the site server's process alive while a process starts or renders, and lets it end
   * when they are idle (like any handle that is only waiting for work).
   */
  private hold(): void {
    const busy =
      this.queue.length > 0 ||
      [...this.workers].some((w) => w.state === 'starting' || w.state === 'busy');
    this.keepAlive.set(busy && !this.closed, this.workers, busy);
  }
}
