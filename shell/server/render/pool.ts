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
  holdHandles,
  lastWords,
  overMemory,
  spawnWorker,
  type Pending,
  type RenderPoolOptions,
  type Worker,
} from './process';

export { RenderProcessError, RenderTimeoutError, type RenderPoolOptions } from './process';

const START_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 5000;
const WATCH_MS = 1000;

/** The first replacement starts at once; more in a row wait 100 ms, 200 ms, ... up to 5 s. */
const backoff = (losses: number): number =>
  losses <= 1 ? 0 : Math.min(100 * 2 ** (losses - 2), MAX_BACKOFF_MS);

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

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
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(private readonly options: RenderPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new Error(`a render pool needs at least one process (size ${options.size})`);
    }
    this.watch = setInterval(() => this.checkMemory(), WATCH_MS);
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
    if (this.workers.size === 0) this.startWorker();
    const deadline = Date.now() + (this.options.startTimeoutMs ?? START_TIMEOUT_MS) * 2;
    while (![...this.workers].some((w) => w.state === 'ready' || w.state === 'busy')) {
      if (this.startError) throw this.startError;
      if (this.closed) throw new Error(`the ${this.name} render pool is closed`);
      if (Date.now() > deadline) throw new Error(`the ${this.name} render processes did not start`);
      if (this.workers.size === 0) this.startWorker();
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
    clearInterval(this.keepAlive);
    clearTimeout(this.backoffTimer);
    const error = new Error(`the ${this.name} render pool is closed`);
    for (const pending of this.queue.splice(0)) pending.reject(error);
    await Promise.all([...this.workers].map((w) => this.end(w, error)));
  }

  /** Processes starting or running. */
  private live(): number {
    return [...this.workers].filter((w) => w.state !== 'gone').length;
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
        overflow: (bytes) =>
          void this.end(
            worker,
            new RenderProcessError(
              `its reply is over ${options.maxReplyBytes} bytes (at least ${bytes}): a page that large is not served`,
            ),
          ),
      });
    } catch (error) {
      this.startFailed(
        new Error(`the render process's code could not be compiled: ${message(error)}`),
      );
      return;
    }
    if (this.closed) {
      worker.child.kill('SIGKILL');
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
    worker.startTimer = setTimeout(
      () =>
        void this.end(
          worker,
          new Error(`was not ready within ${options.startTimeoutMs ?? START_TIMEOUT_MS} ms`),
        ),
      options.startTimeoutMs ?? START_TIMEOUT_MS,
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
        worker.timer = setTimeout(
          () =>
            void this.end(
              worker,
              new RenderTimeoutError(`rendering ${pending.job.path} took over ${timeoutMs} ms`),
            ),
          timeoutMs,
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
      worker.timer = setTimeout(
        () =>
          void this.end(
            worker,
            new RenderTimeoutError(
              `the process did not start rendering ${pending.job.path} within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      this.write(worker, { type: 'render', job: pending.job });
    }
    const starting = [...this.workers].filter((w) => w.state === 'starting').length;
    if (
      this.queue.length > starting &&
      this.live() < this.options.size &&
      Date.now() >= this.backoffUntil
    ) {
      void this.startWorker();
    } else if (this.queue.length > 0 && this.live() === 0 && !this.backoffTimer) {
      const wait = Math.max(0, this.backoffUntil - Date.now());
      this.backoffTimer = setTimeout(() => {
        this.backoffTimer = undefined;
        this.dispatch();
      }, wait);
    }
    for (const worker of this.workers) this.scheduleIdle(worker);
    if (this.retired && this.idle) void this.close();
    this.hold();
  }

  /** A process beyond the ones kept stops once it has been idle for `idleMs`. */
  private scheduleIdle(worker: Worker): void {
    if (worker.state !== 'ready' || worker.idleTimer) return;
    worker.idleTimer = setTimeout(() => {
      worker.idleTimer = undefined;
      const running = [...this.workers].filter((w) => w.state === 'ready' || w.state === 'busy');
      if (worker.state === 'ready' && running.length > this.options.keep) {
        worker.idleStop = true;
        void this.end(worker, new Error('was idle'));
      }
    }, this.options.idleMs);
    worker.idleTimer.unref();
  }

  /** Ends a process: its render fails with `reason`, and it is killed. */
  private end(worker: Worker, reason: Error): Promise<void> {
    if (worker.state === 'gone' || worker.ending) return this.exited(worker);
    worker.ending = reason;
    if (!worker.idleStop && !this.closed) {
      this.options.log.warn(
        `render pool ${this.name}: a render process ${reason.message}; it is replaced`,
      );
    }
    const done = this.exited(worker);
    // An idle process is not holding the site server's process open: waiting for its end must.
    holdHandles(worker, true);
    worker.child.kill('SIGKILL');
    return done;
  }

  private exited(worker: Worker): Promise<void> {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) {
      return Promise.resolve();
    }
    return new Promise((resolve) => worker.child.once('close', () => resolve()));
  }

  /** A process is gone: its render fails (or is tried once more), and the pool carries on. */
  private gone(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const wasStarting = worker.state === 'starting';
    worker.state = 'gone';
    this.workers.delete(worker);
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

  private checkMemory(): void {
    for (const worker of this.workers) {
      const over = overMemory(worker, this.options.memoryMb);
      if (over) void this.end(worker, over);
    }
  }

  /**
   * Keeps the site server's process alive while a process starts or renders, and lets it end
   * when they are idle (like any handle that is only waiting for work).
   */
  private hold(): void {
    const busy =
      this.queue.length > 0 ||
      [...this.workers].some((w) => w.state === 'starting' || w.state === 'busy');
    if (busy && !this.closed) this.keepAlive ??= setInterval(() => undefined, 60_000);
    else {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
    for (const worker of this.workers) holdHandles(worker, busy);
  }
}
