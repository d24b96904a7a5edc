/**
 * What every part of the service asks of the outbox, whichever store holds it: the SQLite file of
 * one instance (answers at once) or PostgreSQL shared by every instance (answers over the
 * network). Callers always `await`, so both fit.
 */
import type { ContactMessage } from '@site/contracts/contact';
import type { EnqueueResult, NewMessage } from './intake';
import type { EraseRequest, Erasure } from './personal-data';
import type { ListOptions, MessageCounts, MessageSummary } from './queries';
import type { AttemptResult, StoredMessage } from './queue';
import type { PurgeOptions, RetentionPolicy } from './retention';
import type { MessageStatus } from './schema';

export type Awaitable<T> = T | Promise<T>;

export interface OutboxStore {
  /** Which store this is, for logs and tests. */
  readonly kind: 'sqlite' | 'postgres';
  /** Resolves once the store can be used (PostgreSQL: connected and migrated); rejects if not. */
  ready(): Promise<void>;
  /** Stores a message; resolves once it is committed durably. */
  enqueue(message: NewMessage): Promise<EnqueueResult>;
  /** What an idempotency key of this client already stands for; undefined when it is new. */
  replayOf(
    client: string,
    idempotencyKey: string,
    payload: ContactMessage,
  ): Awaitable<EnqueueResult | undefined>;
  /**
   * Queued messages whose next attempt is due, in fair order. With a shared store they are
   * claimed for this instance until their result is recorded (or the claim lapses).
   */
  due(limit: number): Awaitable<StoredMessage[]>;
  /**
   * Right before a send: whether this instance's claim on the message still holds (its fencing
   * token is the row's and its lease has not lapsed), renewing the lease if so. False means the
   * message passed to another instance: it must not be sent. Always true for a store no one else
   * delivers from.
   */
  holdClaim(message: StoredMessage): Awaitable<boolean>;
  /** When the next queued message is due (ms since the epoch), if any is queued. */
  nextDueAt(): Awaitable<number | undefined>;
  /** Makes every queued message due now (at start-up); returns how many there are. */
  retryQueuedNow(): Awaitable<number>;
  /**
   * Records the result of one delivery attempt, right after the send; with a shared store only
   * under the claim it was made with (a claim that passed on records nothing).
   */
  record(result: AttemptResult): Awaitable<void>;
  /** Queues failed messages again (all of them, or those named), due now. */
  requeue(ids?: string[]): Awaitable<number>;
  /** Queues spam messages an operator released (a false positive), due now; returns how many. */
  release(ids: string[]): Awaitable<number>;
  /** Marks failed messages as seen by an operator: they no longer hold readiness red. */
  acknowledge(ids?: string[]): Awaitable<number>;
  counts(): Awaitable<MessageCounts>;
  /** Since when the longest-waiting queued message has waited (accepted or requeued), if any. */
  oldestQueuedAt(): Awaitable<number | undefined>;
  /** Failed messages no operator has looked at yet. */
  unacknowledgedFailed(): Awaitable<number>;
  /** The status of one message, for operators and tests. */
  statusOf(id: string): Awaitable<{ status: MessageStatus; attempts: number } | undefined>;
  /** Messages by state, newest first; the content only when asked for. */
  list(options: ListOptions): Awaitable<MessageSummary[]>;
  /** Deletes messages for good: the ones named, or every one in a state older than `before`. */
  purge(options: PurgeOptions): Awaitable<number>;
  /** Applies the retention policy. */
  applyRetention(policy: RetentionPolicy): Awaitable<{ redacted: number; deleted: number }>;
  /** Every stored message from an address (any case), oldest first, with its content. */
  messagesFrom(address: string): Awaitable<MessageSummary[]>;
  /**
   * Deletes every message from an address so that no file of the store still holds it, and
   * records the erasure (an HMAC of the address, the count); returns the ids erased.
   */
  erase(request: EraseRequest): Awaitable<string[]>;
  /** The erasures served, newest first. */
  erasures(): Awaitable<Erasure[]>;
  /**
   * Claims the sending of the digest of held messages for `leaseMs`: true when one is due (none
   * sent in the last `everyMs`), some held message has not been in one yet, and no other instance
   * is sending one now.
   */
  claimDigest(everyMs: number, leaseMs: number): Awaitable<boolean>;
  /** The held messages no digest has listed yet, oldest first, at most `limit`, with the total. */
  heldForDigest(limit: number): Awaitable<{ messages: MessageSummary[]; total: number }>;
  /** The digest listing `ids` was sent (or, with undefined, could not be): gives up the claim. */
  digestDone(ids: string[] | undefined): Awaitable<void>;
  /** The server secret kept in the store (made on first use), when FORM_TOKEN_SECRET is unset. */
  storedSecret(): Awaitable<string>;
  /** Whether a committed write succeeds right now. */
  probeWritable(): Awaitable<boolean>;
  /**
   * Calls `wake` when another instance (or this one) has stored a message: a shared store's
   * workers sleep between polls otherwise. A no-op for a store no one else writes to.
   */
  onMessageStored(wake: () => void): void;
  close(): Awaitable<void>;
}

/** What an operator reads when the store cannot be used: an outage, not a configuration error. */
export const storeUnavailableHint = (kind: OutboxStore['kind']): string =>
  kind === 'postgres'
    ? 'the database (DATABASE_URL) cannot be reached; it is used again as soon as it answers'
    : 'the outbox file in DATA_DIR cannot be read or written (disk full, permissions)';
