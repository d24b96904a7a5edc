/**
 * The delivery worker: takes what is due from the outbox, sends it through the courier, and
 * records each result; its status feeds /api/ready and the metrics.
 */
import type { Logger } from 'pino';
import type { OutboxStore } from '../outbox/store';
import type { AttemptResult, StoredMessage } from '../outbox/queue';
import { isStringArray, type Courier, type Refusal } from './courier';
import {
  OPERATOR_HINT,
  backoffMs,
  classify,
  describeError,
  relayReply,
  type FailureKind,
} from './failures';
import { InFlow, type InFlowOptions } from './in-flow';
import { buildMail, type MailConfig } from './message';

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

/** What the worker reports for metrics. */
export interface DeliveryObserver {
  attempt(outcome: 'delivered' | 'retry' | 'failed', kind: FailureKind | null): void;
  /** From acceptance to the relay's acceptance. */
  delivered(latencyMs: number): void;
  recordFailed(): void;
}

export interface WorkerOptions extends InFlowOptions {
  outbox: OutboxStore;
  courier: Courier;
  mail: MailConfig;
  logger: Logger;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a message is retried before it is kept as failed, from its acceptance. */
  queueLifetimeMs: number;
  observer?: DeliveryObserver;
  now?: () => number;
  random?: () => number;
  batchSize?: number;
  concurrency?: number;
  /** How often the outbox is looked at even when nothing seems due (a safety net). */
  pollMs?: number;
  /** How often a failed record is tried again while delivery waits for storage. */
  storageRetryMs?: number;
}

const days = (ms: number) =>
  ms >= 2 * 86_400_000
    ? `${Math.round(ms / 86_400_000)} days`
    : `${Math.round(ms / 60_000)} minutes`;

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
  }

  start(): void {
    // A shared outbox announces messages stored by other instances too.
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
        const result = await this.deliverOne(message);
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
          'cannot record a delivery result in the outbox: delivery is stopped until the outbox can be written again (DATA_DIR: free disk space; DATABASE_URL: make the database reachable); nothing is sent twice',
        );
      }
    }
    this.unrecorded.push(result);
  }

  private async deliverOne(message: StoredMessage): Promise<AttemptResult> {
    const attempts = message.attempts + 1;
    const log = { messageId: message.id, attempt: attempts, mode: this.o.courier.mode };
    const all = this.o.mail.mailTo.map((a) => a.address);
    const done = new Set(message.doneRecipients);
    const remaining = all.filter((a) => !done.has(a));
    let accepted: string[] = [];
    let rejected: Refusal[] = [];
    let failure: unknown;
    try {
      const utf8 = this.o.courier.smtpUtf8() !== false;
      const mail = buildMail(message, this.o.mail, { smtpUtf8: utf8 });
      ({ accepted, rejected } = await this.o.courier.send(mail, message, remaining));
      await this.o.courier.settle();
    } catch (error) {
      failure = error;
      const e = error as { rejected?: unknown; rejectedErrors?: unknown };
      // Every recipient refused at RCPT TO: judged recipient by recipient, like a partial refusal.
      if (isStringArray(e.rejected) && Array.isArray(e.rejectedErrors)) {
        const errors = e.rejectedErrors as unknown[];
        rejected = e.rejected.map((recipient, i) => ({ recipient, error: errors[i] }));
      }
    }
    const recipients = [...message.doneRecipients, ...accepted];

    if (failure === undefined && rejected.length === 0) {
      this.note(true, null);
      this.o.observer?.attempt('delivered', null);
      this.o.observer?.delivered(this.now() - message.createdAt);
      this.o.logger.info(log, 'message delivered');
      return { id: message.id, claim: message.claim, outcome: 'delivered', attempts, recipients };
    }

    // The worst refusal decides: anything worth retrying keeps the message queued for those
    // recipients; only refusals that are all permanent make it failed.
    const kinds =
      rejected.length > 0 ? rejected.map((r) => classify(r.error)) : [classify(failure)];
    const kind: FailureKind = kinds.includes('configuration')
      ? 'configuration'
      : kinds.includes('transient')
        ? 'transient'
        : 'permanent';
    const cause = rejected[0]?.error ?? failure;
    const reason =
      rejected.length > 0
        ? `${describeError(cause)} refused ${rejected.map((r) => r.recipient).join(', ')}`
        : describeError(failure);
    if (accepted.length > 0) this.note(true, null);
    else this.note(kind === 'permanent', kind === 'permanent' ? null : reason);

    // The retry period starts at acceptance, or again at an operator's requeue.
    const age = this.now() - message.queuedAt;
    const expired = age >= this.o.queueLifetimeMs;
    if (kind === 'permanent' || expired) {
      this.o.observer?.attempt('failed', kind);
      this.o.logger.error(
        {
          ...log,
          err: reason,
          reply: relayReply(cause),
          kind,
          delivered: recipients,
          rejected: rejected.map((r) => r.recipient),
        },
        expired && kind !== 'permanent'
          ? `message not delivered after ${days(age)}; kept in the outbox as failed: fix the cause, then \`npm run outbox -w mail-service -- requeue ${message.id}\``
          : `message refused for good; kept in the outbox as failed: ${OPERATOR_HINT.permanent}`,
      );
      return {
        id: message.id,
        claim: message.claim,
        outcome: 'failed',
        attempts,
        error: reason,
        recipients,
      };
    }
    const wait = backoffMs(attempts, this.o.retryBaseMs, this.o.retryMaxMs, this.random);
    this.o.observer?.attempt('retry', kind);
    const entry = { ...log, err: reason, reply: relayReply(cause), kind, retryInMs: wait };
    if (kind === 'configuration') {
      this.o.logger.error(entry, `delivery failed: ${OPERATOR_HINT.configuration}`);
    } else this.o.logger.warn(entry, 'delivery failed; will retry');
    return {
      id: message.id,
      claim: message.claim,
      outcome: 'retry',
      attempts,
      nextAttemptAt: this.now() + wait,
      error: reason,
      recipients,
    };
  }

  private note(ok: boolean, error: string | null): void {
    this.notes += 1;
    this.state = { ...this.state, working: ok, lastAttemptAt: this.now(), lastError: error };
  }
}
