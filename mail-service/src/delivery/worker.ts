/**
 * The delivery worker: takes what is due from the outbox, sends it through the courier, and
 * records each result; its status feeds /api/ready and the metrics.
 */
import type { Outbox } from '../outbox/outbox';
import type { AttemptResult, StoredMessage } from '../outbox/queue';
import { deliverOne, type AttemptContext, type AttemptOptions } from './attempt';
import { OPERATOR_HINT, classify, describeError, relayReply } from './failures';
import { InFlow, type InFlowOptions } from './in-flow';

/** What /api/ready and the metrics read of delivery. */
export interface DeliveryStatus {
  mode: 'smtp' | 'mailbox';
  /** null until the first attempt (or check) has a result. */
  working: boolean | null;
  lastAttemptAt: number | null;
  lastError: string | null;
  /** false after a delivery result could not be written: delivery waits until it can be. */
  recording: boolean;
  /** Whether the relay takes UTF-8 addresses; null until known. */
  smtpUtf8: boolean | null;
}

export interface WorkerOptions extends InFlowOptions, AttemptOptions {
  outbox: Outbox;
  now?: () => number;
  random?: () => number;
  batchSize?: number;
  concurrency?: number;
  /** How often the outbox is looked at even when nothing seems due (a safety net). */
  pollMs?: number;
  /** How often a failed record is tried again while delivery waits for storage. */
  storageRetryMs?: number;
}

/**
 * Delivers what is queued in the outbox, in this process. Woken when a message is stored and by a
 * timer for the next retry; on start it picks up whatever an earlier run left undelivered.
 *
 * Each result is recorded the moment the relay has answered, one message at a time. When a result
 * cannot be recorded (a full disk, say), delivery stops: the result is kept in memory and written
 * as soon as storage works again, and nothing is sent meanwhile, so no message is sent twice
 * because its record failed.
 */
export class DeliveryWorker {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private state: DeliveryStatus;
  private notes = 0;
  private unrecorded: AttemptResult[] = [];
  /** The last round failed (the outbox could not be read or claimed from): the next one waits. */
  private roundFailed = false;
  private readonly inFlow: InFlow;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly storageRetryMs: number;
  private readonly attempt: AttemptContext;

  constructor(private readonly o: WorkerOptions) {
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    this.batchSize = o.batchSize ?? 20;
    // Matches the SMTP pool's connections; one file at a time keeps the mailbox from crowding out
    // the requests (each .eml costs more CPU to build than a request costs to accept).
    this.concurrency = o.concurrency ?? (o.courier.mode === 'smtp' ? 4 : 1);
    this.pollMs = o.pollMs ?? 60_000;
    this.storageRetryMs = o.storageRetryMs ?? 1000;
    this.inFlow = new InFlow(o);
    this.state = {
      mode: o.courier.mode,
      working: null,
      lastAttemptAt: null,
      lastError: null,
      recording: true,
      smtpUtf8: o.courier.smtpUtf8(),
    };
    this.attempt = {
      now: this.now,
      random: this.random,
      note: (ok, error) => this.note(ok, error),
    };
  }

  start(): void {
    // The outbox announces the messages every instance queues, this one's and the others'.
    this.o.outbox.onMessageStored(() => this.kick());
    this.kick();
  }

  /** Looks at the outbox now (or as soon as the current round ends). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.roundFailed = false;
    this.running = this.run()
      .catch((error: unknown) => {
        this.roundFailed = true;
        this.o.logger.error({ err: describeError(error) }, 'delivery round failed');
      })
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again && this.unrecorded.length === 0) this.kick();
        else this.schedule();
      });
  }

  /**
   * Called before a message is stored: resolves at once, or, when a flood of requests runs ahead
   * of delivery, after the next delivery (see InFlow). When delivery is not working (relay down),
   * nothing waits: messages are accepted and kept.
   */
  admit(): Promise<void> | undefined {
    return this.inFlow.admit(this.state.working === false || !this.state.recording);
  }

  status(): DeliveryStatus {
    return { ...this.state, smtpUtf8: this.o.courier.smtpUtf8() };
  }

  /** Checks the transport once (at start-up), so /api/ready knows before the first message. */
  async verify(): Promise<void> {
    // A send that finished while the check ran is newer news than the check: it wins.
    const seen = this.notes;
    try {
      await this.o.courier.verify();
      if (this.notes === seen && this.state.working !== true) {
        if (this.state.working === false) this.o.logger.info('delivery works again');
        this.note(true, null);
      }
    } catch (error) {
      if (this.notes === seen) this.note(false, describeError(error));
      const kind = classify(error);
      this.o.logger.warn(
        { err: describeError(error), reply: relayReply(error), kind },
        kind === 'configuration'
          ? `delivery check failed: ${OPERATOR_HINT.configuration}`
          : 'delivery check failed; messages stay queued until it works',
      );
    }
  }

  /** Stops taking new messages and waits for the sends in progress; the rest stays queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(): void {
    void this.scheduleNext();
  }

  private async scheduleNext(): Promise<void> {
    let wait: number;
    if (this.unrecorded.length > 0 || this.roundFailed) wait = this.storageRetryMs;
    else {
      let next: number | undefined;
      try {
        next = await this.o.outbox.nextDueAt();
      } catch {
        next = this.now() + this.storageRetryMs;
      }
      wait =
        next === undefined ? this.pollMs : Math.max(0, Math.min(next - this.now(), this.pollMs));
    }
    // Kicked or stopped while the outbox was asked: that round schedules its own successor.
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), wait);
    // The HTTP server keeps the process alive; this timer alone should not.
    this.timer.unref();
  }

  /** Writes the results that could not be written before; true when none is left. */
  private async recordPending(): Promise<boolean> {
    while (this.unrecorded.length > 0) {
      const next = this.unrecorded[0] as AttemptResult;
      try {
        await this.o.outbox.record(next);
      } catch {
        return false;
      }
      this.unrecorded.shift();
    }
    if (!this.state.recording) {
      this.state = { ...this.state, recording: true };
      this.o.logger.info('delivery results are recorded again; delivery resumes');
    }
    return true;
  }

  private async run(): Promise<void> {
    if (!(await this.recordPending())) return;
    let attempted = false;
    do {
      this.again = false;
      for (;;) {
        if (this.stopped || this.unrecorded.length > 0) return;
        const batch = await this.o.outbox.due(this.batchSize);
        if (batch.length === 0) {
          this.inFlow.caughtUp();
          break;
        }
        attempted = true;
        await this.deliverAll(batch);
      }
    } while (this.again && !this.stopped);
    // With nothing to send, a broken transport would otherwise look broken until the next
    // message: check it again on each idle round, so /api/ready recovers on its own.
    if (!attempted && this.state.working === false && !this.stopped) await this.verify();
  }

  private async deliverAll(batch: StoredMessage[]): Promise<void> {
    let next = 0;
    const lane = async () => {
      // Checked before each send: on shutdown, or when a result could not be recorded, the sends
      // in progress finish and no new one starts.
      while (!this.stopped && this.unrecorded.length === 0 && next < batch.length) {
        const message = batch[next++] as StoredMessage;
        if (!(await this.stillOurs(message))) continue;
        const result = await deliverOne(message, this.o, this.attempt);
        await this.record(result);
        this.inFlow.release();
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batch.length) }, lane));
  }

  /**
   * The fencing check, right before the send: a claim this process held may have lapsed while it
   * was stalled (a stopped or swapped-out process, a long pause) and the message passed to another
   * instance. Such a message is not sent; nor is one whose claim cannot be checked just now (its
   * lease then lapses, and it is sent by whoever claims it next).
   */
  private async stillOurs(message: StoredMessage): Promise<boolean> {
    try {
      if (await this.o.outbox.holdClaim(message)) return true;
      this.o.logger.info(
        { messageId: message.id },
        'not sent: its claim lapsed and another instance has it now',
      );
    } catch (error) {
      // Not renewed any more: its lease lapses and it is claimed again once the database is back.
      this.o.outbox.letGo(message.id);
      this.o.logger.warn(
        { messageId: message.id, err: describeError(error) },
        'not sent: its claim could not be checked (the database is unreachable); it is sent once the database is back',
      );
    }
    return false;
  }

  private async record(result: AttemptResult): Promise<void> {
    if (this.unrecorded.length === 0) {
      try {
        await this.o.outbox.record(result);
        return;
      } catch (error) {
        this.o.observer?.recordFailed();
        this.state = { ...this.state, recording: false };
        this.o.logger.error(
          {
            messageId: result.id,
            outcome: result.outcome,
            err: describeError(error) === 'error' ? String(error) : describeError(error),
          },
          'cannot record a delivery result in the outbox: delivery is stopped until the database (DATABASE_URL) can be written again; nothing is sent twice',
        );
      }
    }
    this.unrecorded.push(result);
  }

  private note(ok: boolean, error: string | null): void {
    this.notes += 1;
    this.state = { ...this.state, working: ok, lastAttemptAt: this.now(), lastError: error };
  }
}
