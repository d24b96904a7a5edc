import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RenderJob, RenderReply, WorkerData, WorkerMessage } from './render-types';

export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}

interface Pending {
  job: RenderJob;
  resolve: (reply: RenderReply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  retried: boolean;
}

/**
 * The worker's entry: tsx's require hook, then the worker's TypeScript, so the worker runs the
 * same way whatever loader started the server (tsx, or a test runner's own).
 */
const WORKER_ENTRY = `require(${JSON.stringify(createRequire(__filename).resolve('tsx/cjs'))});
require(${JSON.stringify(path.join(__dirname, 'render-worker.ts'))});`;

/**
 * Render workers with a time limit per page. A render that runs past it (a remote whose code
 * loops, a fetch that never ends) has its worker terminated and replaced; other renders that were
 * on that worker are run again once on the new one.
 */
export class RenderPool {
  private workers: { worker: Worker; jobs: Map<number, Pending> }[] = [];
  private nextId = 1;
  private next = 0;
  private closed = false;

  constructor(private readonly options: { data: WorkerData; size: number; timeoutMs: number }) {
    for (let i = 0; i < options.size; i++) this.workers.push(this.spawn());
  }

  private spawn(): { worker: Worker; jobs: Map<number, Pending> } {
    const jobs = new Map<number, Pending>();
    const worker = new Worker(WORKER_ENTRY, { eval: true, workerData: this.options.data });
    const slot = { worker, jobs };
    worker.on('message', (message: WorkerMessage) => {
      const pending = jobs.get(message.id);
      if (!pending) return;
      jobs.delete(message.id);
      clearTimeout(pending.timer);
      if ('error' in message) pending.reject(new Error(message.error));
      else pending.resolve(message);
    });
    worker.on('error', (error) => this.replace(slot, error));
    worker.on('exit', () => {
      if (!this.closed) this.replace(slot, new Error('the render worker stopped'));
    });
    worker.unref();
    return slot;
  }

  /** Replaces a worker that died or hung; its other renders get one more try elsewhere. */
  private replace(
    slot: { worker: Worker; jobs: Map<number, Pending> },
    error: Error,
    except?: number,
  ): void {
    const index = this.workers.indexOf(slot);
    if (index === -1) return;
    this.workers[index] = this.spawn();
    void slot.worker.terminate();
    for (const [id, pending] of slot.jobs) {
      if (id === except) continue;
      clearTimeout(pending.timer);
      if (pending.retried) pending.reject(error);
      else this.dispatch(pending.job, pending.resolve, pending.reject, true);
    }
    slot.jobs.clear();
  }

  private dispatch(
    job: RenderJob,
    resolve: (reply: RenderReply) => void,
    reject: (error: Error) => void,
    retried: boolean,
  ): void {
    const slot = this.workers[this.next++ % this.workers.length];
    if (!slot) return reject(new Error('no render worker'));
    const timer = setTimeout(() => {
      slot.jobs.delete(job.id);
      reject(
        new RenderTimeoutError(`rendering ${job.path} took over ${this.options.timeoutMs} ms`),
      );
      this.replace(slot, new Error('the render worker was stopped'), job.id);
    }, this.options.timeoutMs);
    slot.jobs.set(job.id, { job, resolve, reject, timer, retried });
    slot.worker.postMessage(job);
  }

  render(job: Omit<RenderJob, 'id'>): Promise<RenderReply> {
    if (this.closed) return Promise.reject(new Error('the render pool is closed'));
    return new Promise((resolve, reject) =>
      this.dispatch({ ...job, id: this.nextId++ }, resolve, reject, false),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }
}
