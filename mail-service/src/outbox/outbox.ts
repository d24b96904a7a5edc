/**
 * The outbox: every accepted message, durably, in one SQLite file. The one object the API, the
 * delivery worker and the outbox command hold; intake, the delivery queue, the queries and
 * retention each live in a module of their own.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ContactMessage } from '@site/contracts/contact';
import { Intake, type EnqueueResult, type NewMessage } from './intake';
import { PersonalData, type EraseRequest, type Erasure } from './personal-data';
import {
  OutboxQueries,
  type ListOptions,
  type MessageCounts,
  type MessageSummary,
} from './queries';
import { DeliveryQueue, type AttemptResult, type StoredMessage } from './queue';
import { Retention, type PurgeOptions, type RetentionPolicy } from './retention';
import { openDatabase, type MessageStatus } from './schema';
import { statement, transaction, type SqliteDb } from './sqlite';
import type { OutboxStore } from './store';

/**
 * Every accepted message, durably, in SQLite (WAL, synchronous=FULL, so a commit has reached the
 * disk when it returns). Inserts are group-committed (see Intake).
 */
export class Outbox implements OutboxStore {
  readonly kind = 'sqlite' as const;
  private closed = false;
  private readonly db: SqliteDb;
  private readonly intake: Intake;
  private readonly queue: DeliveryQueue;
  private readonly queries: OutboxQueries;
  private readonly retention: Retention;
  private readonly personal: PersonalData;

  private constructor(
    readonly file: string,
    now: () => number,
  ) {
    this.db = openDatabase(file);
    const outboxDb = { db: this.db, now };
    this.intake = new Intake(outboxDb);
    this.queue = new DeliveryQueue(outboxDb);
    this.queries = new OutboxQueries(outboxDb);
    this.retention = new Retention(outboxDb);
    this.personal = new PersonalData(outboxDb);
  }

  /** Opens (creating if needed) the outbox in `dir`. */
  static open(dir: string, now: () => number = Date.now): Outbox {
    mkdirSync(dir, { recursive: true });
    return new Outbox(path.join(dir, 'outbox.sqlite'), now);
  }

  /** The file is open and current once the constructor returns. */
  ready(): Promise<void> {
    return Promise.resolve();
  }

  /** Only this process writes here, and it wakes its own worker: nothing to listen for. */
  onMessageStored(): void {}

  /** Stores a message; resolves once it is committed to disk (see Intake.enqueue). */
  enqueue(message: NewMessage): Promise<EnqueueResult> {
    if (this.closed) return Promise.reject(new Error('the outbox is closed'));
    return this.intake.enqueue(message);
  }

  /** What an idempotency key of this client already stands for; undefined when it is new. */
  replayOf(
    client: string,
    idempotencyKey: string,
    payload: ContactMessage,
  ): Promise<EnqueueResult> | undefined {
    if (this.closed) return undefined;
    return this.intake.replayOf(client, idempotencyKey, payload);
  }

  /** Commits the pending inserts now (also called on shutdown). */
  flush(): void {
    this.intake.flush();
  }

  /** Queued messages whose next attempt is due, in fair order. */
  due(limit: number): StoredMessage[] {
    return this.queue.due(limit);
  }

  /** Only this process delivers from this file: its claims cannot pass to anyone. */
  holdClaim(): boolean {
    return true;
  }

  /** When the next queued message is due (ms since the epoch), if any is queued. */
  nextDueAt(): number | undefined {
    return this.queue.nextDueAt();
  }

  /** Makes every queued message due now (at start-up); returns how many there are. */
  retryQueuedNow(): number {
    return this.queue.retryQueuedNow();
  }

  /** Records the result of one delivery attempt, right after the send. */
  record(result: AttemptResult): void {
    this.queue.record(result);
  }

  /** Queues failed messages again (all of them, or those named), due now. */
  requeue(ids?: string[]): number {
    return this.queue.requeue(ids);
  }

  /** Queues spam messages an operator released, due now (see DeliveryQueue.release). */
  release(ids: string[]): number {
    return this.queue.release(ids);
  }

  /** Marks failed messages as seen by an operator: they no longer hold readiness red. */
  acknowledge(ids?: string[]): number {
    return this.queue.acknowledge(ids);
  }

  counts(): MessageCounts {
    return this.queries.counts();
  }

  /** Since when the longest-waiting queued message has waited (accepted or requeued), if any. */
  oldestQueuedAt(): number | undefined {
    return this.queries.oldestQueuedAt();
  }

  /** Failed messages no operator has looked at yet. */
  unacknowledgedFailed(): number {
    return this.queries.unacknowledgedFailed();
  }

  /** The status of one message, for operators and tests. */
  statusOf(id: string): { status: MessageStatus; attempts: number } | undefined {
    return this.queries.statusOf(id);
  }

  /** Messages by state, newest first; the content only when asked for. */
  list(options: ListOptions): MessageSummary[] {
    return this.queries.list(options);
  }

  /** Deletes messages for good: the ones named, or every one in a state older than `before`. */
  purge(options: PurgeOptions): number {
    return this.retention.purge(options);
  }

  /** Applies the retention policy (see Retention.apply). */
  applyRetention(policy: RetentionPolicy): { redacted: number; deleted: number } {
    return this.retention.apply(policy);
  }

  /** Every stored message from an address (any case), oldest first, with its content. */
  messagesFrom(address: string): MessageSummary[] {
    return this.personal.ofAddress(address);
  }

  /** Erases every message from an address from every file of the outbox (see PersonalData). */
  erase(request: EraseRequest): string[] {
    this.flush();
    return this.personal.erase(request);
  }

  erasures(): Erasure[] {
    return this.personal.erasures();
  }

  claimDigest(everyMs: number, leaseMs: number): boolean {
    const now = this.queries.now();
    statement(this.db, 'INSERT INTO digest (id) VALUES (1) ON CONFLICT (id) DO NOTHING').run();
    return (
      statement<[number, number, number, number]>(
        this.db,
        `UPDATE digest SET claimed_until = ? + ?
         WHERE id = 1 AND (claimed_until IS NULL OR claimed_until <= ?)
           AND (last_sent_at IS NULL OR last_sent_at <= ?)
           AND EXISTS (SELECT 1 FROM messages WHERE status = 'spam' AND digested_at IS NULL)`,
      ).run(now, leaseMs, now, now - everyMs).changes > 0
    );
  }

  heldForDigest(limit: number): { messages: MessageSummary[]; total: number } {
    return this.queries.heldForDigest(limit);
  }

  digestDone(ids: string[] | undefined): void {
    const now = this.queries.now();
    transaction(this.db, () => {
      for (const id of ids ?? []) {
        statement<[number, string]>(
          this.db,
          'UPDATE messages SET digested_at = ? WHERE id = ?',
        ).run(now, id);
      }
      if (ids) {
        statement<[number]>(
          this.db,
          'UPDATE digest SET last_sent_at = ?, claimed_until = NULL WHERE id = 1',
        ).run(now);
      } else statement(this.db, 'UPDATE digest SET claimed_until = NULL WHERE id = 1').run();
    });
  }

  /** The server secret of this outbox, made on first use. */
  storedSecret(): string {
    statement<[string]>(
      this.db,
      "INSERT OR IGNORE INTO secrets (name, value) VALUES ('server', ?)",
    ).run(randomBytes(32).toString('base64url'));
    return statement<[], { value: string }>(
      this.db,
      "SELECT value FROM secrets WHERE name = 'server'",
    ).get()!.value;
  }

  /** Whether a write reaches the disk right now (a real committed write, not a permission check). */
  probeWritable(): boolean {
    if (this.closed) return false;
    return this.queries.probeWritable();
  }

  close(): void {
    if (this.closed) return;
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.db.close();
    }
  }
}
