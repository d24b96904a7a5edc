/**
 * The outbox: every accepted message, durably, in the PostgreSQL every instance shares (the pool
 * and the migrations: ../postgres.ts). One object, the one the API, the delivery worker, the
 * digest and the outbox command hold, with each operation written once.
 *
 * Delivery claims: a worker claims due messages in fair order with a lease (`claimed_by`,
 * `lease_until`, on the database's clock) and a fencing token (`claim`, counted up by each claim).
 * The lease is renewed while the sends run, the token is checked right before each send, and a
 * result is recorded only under it: an instance that died or stalled past its lease leaves its
 * messages to the others, and sends or records none of them once they passed on.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ContactMessage } from '@site/contracts/contact';
import type { Listener } from '@site/postgres';
import type { Postgres } from '../postgres';
import { idsOrAll, type OutboxContext } from './context';
import * as heldMessages from './held';
import { Intake, type EnqueueResult, type NewMessage } from './intake';
import {
  SUMMARY_COLUMNS,
  toSummary,
  type ListOptions,
  type MessageCounts,
  type MessageSummary,
  type SummaryRow,
} from './queries';
import { storedMessage, type AttemptResult, type DueRow, type StoredMessage } from './queue';
import * as retention from './retention';
import { onQueued, sqlOn, type Sql } from './sql';
import type { MessageStatus } from './stored';

/** A claim lasts this long without renewal (renewed every third of it while the send runs). */
export const DEFAULT_LEASE_MS = 10_000;

/**
 * The database's clock, in ms, the one every instance shares: leases are set and compared on it,
 * so a machine whose clock runs ahead cannot take another's claims early.
 */
const DB_NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** What an operator reads when the outbox cannot be used: an outage, not a configuration error. */
export const OUTBOX_UNAVAILABLE =
  'the database (DATABASE_URL) cannot be reached; it is used again as soon as it answers';

export interface OutboxOptions {
  now?: () => number;
  /** How long a claim holds without renewal (renewed every third of that). */
  leaseMs?: number;
}

export class Outbox {
  /** Who claims, in `claimed_by`: unique per process. */
  readonly instanceId = randomUUID();
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly intake: Intake;
  /** Messages this instance has claimed and not yet recorded, with their claims' tokens. */
  private readonly claimed = new Map<string, number>();
  private readonly renewTimer: NodeJS.Timeout;
  private listener: Listener | undefined;
  private closing: Promise<void> | undefined;
  /** The statements, open or closed. */
  private readonly statements: Sql;
  /** What the operations kept in retention.ts and held.ts run on. */
  private readonly db: OutboxContext;

  /** The outbox on `pg`, the process's pool, which its owner closes after the outbox. */
  constructor(
    private readonly pg: Postgres,
    { now = Date.now, leaseMs = DEFAULT_LEASE_MS }: OutboxOptions = {},
  ) {
    this.now = now;
    this.leaseMs = leaseMs;
    this.statements = sqlOn(pg);
    this.intake = new Intake(this.statements, now);
    this.db = { sql: () => this.sql, now };
    this.renewTimer = setInterval(() => void this.renewLeases(), leaseMs / 3);
    this.renewTimer.unref();
  }

  /** The statements, while the outbox is open. */
  private get sql(): Sql {
    if (this.closing) throw new Error('the outbox is closed');
    return this.statements;
  }

  /** Resolves once the database can be used (connected and migrated); rejects if not. */
  ready(): Promise<void> {
    return this.pg.ready;
  }

  /** Stores a message; resolves once it is committed durably (see Intake). */
  async enqueue(message: NewMessage): Promise<EnqueueResult> {
    if (this.closing) throw new Error('the outbox is closed');
    return this.intake.enqueue(message);
  }

  /** What an idempotency key of this client already stands for; undefined when it is new. */
  async replayOf(client: string, key: string, payload: ContactMessage) {
    if (this.closing) throw new Error('the outbox is closed');
    return this.intake.replayOf(client, key, payload);
  }

  /**
   * Claims up to `limit` due messages for this instance, in fair order: a client's first waiting
   * message (lane 1) before anyone's second, so one client's flood cannot hold back another's.
   * Rows another instance is claiming right now are skipped; a claim whose lease ended is free.
   */
  async due(limit: number): Promise<StoredMessage[]> {
    const rows = await this.sql.all<DueRow>(
      `UPDATE mail_messages SET claimed_by = $1, lease_until = ${DB_NOW} + $2, claim = claim + 1
       FROM (SELECT id AS due_id FROM mail_messages
             WHERE status = 'queued' AND next_attempt_at <= $3
               AND (lease_until IS NULL OR lease_until <= ${DB_NOW})
             ORDER BY lane, created_at LIMIT $4 FOR UPDATE SKIP LOCKED) AS due
       WHERE mail_messages.id = due.due_id
       RETURNING id, payload, lane, created_at, queued_at, attempts, done_rcpts, claim`,
      [this.instanceId, this.leaseMs, this.now(), limit],
    );
    rows.sort((a, b) => a.lane - b.lane || a.created_at - b.created_at);
    const out: StoredMessage[] = [];
    for (const row of rows) {
      this.claimed.set(row.id, row.claim);
      const message = storedMessage(row);
      if (message) out.push(message);
      else {
        // An unreadable row would otherwise come back first in every round and block the queue.
        const { id, claim, attempts } = row;
        await this.record({
          id,
          claim,
          attempts,
          outcome: 'failed',
          error: 'unreadable payload',
          recipients: [],
        });
      }
    }
    return out;
  }

  /** Keeps the claims of the sends in progress; a failure here only shortens them. */
  private async renewLeases(): Promise<void> {
    if (this.closing) return;
    for (const [id, claim] of this.claimed) {
      await this.holdClaim({ id, claim }).catch(() => false);
    }
  }

  /**
   * Stops renewing the claim on a message this instance will not send now (its claim could not be
   * checked): the lease lapses, and the message is claimed again, by this instance or another, once
   * it has. Renewed forever instead, it would never be sent until the process restarts.
   */
  letGo(id: string): void {
    this.claimed.delete(id);
  }

  /**
   * Right before a send: whether this instance's claim still holds (the row carries its token and
   * the lease has not lapsed), renewing the lease if so, in one statement. False means another
   * instance has the message now: it must not be sent.
   */
  async holdClaim(message: Pick<StoredMessage, 'id' | 'claim'>): Promise<boolean> {
    const held = await this.sql.run(
      `UPDATE mail_messages SET lease_until = ${DB_NOW} + $1
       WHERE id = $2 AND claim = $3 AND claimed_by = $4 AND status = 'queued'
         AND lease_until > ${DB_NOW}`,
      [this.leaseMs, message.id, message.claim, this.instanceId],
    );
    if (held === 0) this.claimed.delete(message.id);
    return held > 0;
  }

  /** When this instance can next find something due: a claimed message from its lease's end. */
  async nextDueAt(): Promise<number | undefined> {
    // A lease's end, on the database's clock, as this process's clock reads it.
    const [row] = await this.sql.all<{ at: number | null }>(
      `SELECT MIN(GREATEST(next_attempt_at, COALESCE(lease_until - ${DB_NOW} + $1, 0))) AS at
       FROM mail_messages WHERE status = 'queued'`,
      [this.now()],
    );
    return row?.at ?? undefined;
  }

  /**
   * Makes every queued message due now (at start-up): whoever restarts the service (after fixing
   * SMTP_URL, say) expects the queue to move at once, not after an earlier run's backoff.
   */
  async retryQueuedNow(): Promise<number> {
    const now = this.now();
    return this.sql.run(
      "UPDATE mail_messages SET next_attempt_at = $1 WHERE status = 'queued' AND next_attempt_at > $1",
      [now],
    );
  }

  /**
   * Records the result of one attempt, right after the send, so that a crash can repeat at most
   * the sends in progress, and gives up the claim; only under the claim the send was made with: a
   * stalled instance's late result for a message claimed since changes nothing.
   */
  async record(r: AttemptResult): Promise<void> {
    const [set, values] =
      r.outcome === 'delivered'
        ? ["status = 'delivered', last_error = NULL, delivered_at = $6", []]
        : r.outcome === 'retry'
          ? ['next_attempt_at = $7, last_error = $8', [r.nextAttemptAt, r.error]]
          : ["status = 'failed', last_error = $7, acknowledged_at = NULL", [r.error]];
    await this.sql.run(
      `UPDATE mail_messages SET ${set}, attempts = $4, done_rcpts = $5, updated_at = $6,
         claimed_by = NULL, lease_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND claim = $3`,
      [
        r.id,
        this.instanceId,
        r.claim,
        r.attempts,
        JSON.stringify(r.recipients),
        this.now(),
        ...values,
      ],
    );
    this.claimed.delete(r.id);
  }

  /**
   * Queues failed messages again (all of them, or those named), due now, with a fresh retry
   * period; recipients that already took a message are not sent it again. When it was accepted
   * stays as it was: the e-mail says when the visitor sent it, not when it was requeued.
   */
  async requeue(ids?: string[]): Promise<number> {
    const at = this.now();
    return this.sql.run(
      `UPDATE mail_messages SET status = 'queued', attempts = 0, next_attempt_at = $1,
         queued_at = $1, acknowledged_at = NULL, updated_at = $1
       WHERE status = 'failed' AND redacted_at IS NULL AND ($2::text[] IS NULL OR id = ANY($2))`,
      [at, idsOrAll(ids)],
    );
  }

  // Held messages: released to the queue, or listed in the digest to sales (held.ts).
  release(ids: string[]) {
    return heldMessages.release(this.db, ids);
  }

  /** Marks failed messages as seen by an operator: they no longer hold readiness red. */
  async acknowledge(ids?: string[]): Promise<number> {
    const at = this.now();
    return this.sql.run(
      `UPDATE mail_messages SET acknowledged_at = $1, updated_at = $1
       WHERE status = 'failed' AND acknowledged_at IS NULL AND ($2::text[] IS NULL OR id = ANY($2))`,
      [at, idsOrAll(ids)],
    );
  }

  async counts(): Promise<MessageCounts> {
    const counts: MessageCounts = { queued: 0, delivered: 0, failed: 0, spam: 0 };
    const rows = await this.sql.all<{ status: MessageStatus; n: number }>(
      'SELECT status, COUNT(*) AS n FROM mail_messages GROUP BY status',
    );
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  /** Since when the longest-waiting queued message has waited (accepted or requeued), if any. */
  async oldestQueuedAt(): Promise<number | undefined> {
    const [row] = await this.sql.all<{ at: number | null }>(
      "SELECT MIN(queued_at) AS at FROM mail_messages WHERE status = 'queued'",
    );
    return row?.at ?? undefined;
  }

  /** Failed messages no operator has looked at yet. */
  async unacknowledgedFailed(): Promise<number> {
    const [row] = await this.sql.all<{ n: number }>(
      "SELECT COUNT(*) AS n FROM mail_messages WHERE status = 'failed' AND acknowledged_at IS NULL",
    );
    return Number(row?.n ?? 0);
  }

  /** The status of one message, for operators and tests. */
  async statusOf(id: string): Promise<{ status: MessageStatus; attempts: number } | undefined> {
    const [row] = await this.sql.all<{ status: MessageStatus; attempts: number }>(
      'SELECT status, attempts FROM mail_messages WHERE id = $1',
      [id],
    );
    return row;
  }

  /** Messages by state, newest first; the content only when asked for. */
  async list(options: ListOptions): Promise<MessageSummary[]> {
    const rows = await this.sql.all<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages
       WHERE ($1::text IS NULL OR status = $1) AND ($2::text[] IS NULL OR id = ANY($2))
       ORDER BY created_at DESC LIMIT $3`,
      [options.status ?? null, idsOrAll(options.ids), options.limit ?? 50],
    );
    return rows.map((row) => toSummary(row, options.withContent));
  }

  // Retention, purges and a person's right to see and erase their messages: retention.ts.
  purge(options: retention.PurgeOptions) {
    return retention.purge(this.db, options);
  }

  applyRetention(policy: retention.RetentionPolicy) {
    return retention.applyRetention(this.db, policy);
  }

  messagesFrom(address: string) {
    return retention.messagesFrom(this.db, address);
  }

  async erase(request: retention.EraseRequest): Promise<string[]> {
    await this.intake.flush();
    return retention.erase(this.db, request);
  }

  erasures() {
    return retention.erasures(this.db);
  }

  /** The server secret kept in the database, made by the first process that asks. */
  async storedSecret(): Promise<string> {
    await this.sql.run(
      "INSERT INTO mail_secrets (name, value) VALUES ('server', $1) ON CONFLICT (name) DO NOTHING",
      [randomBytes(32).toString('base64url')],
    );
    const [row] = await this.sql.all<{ value: string }>(
      "SELECT value FROM mail_secrets WHERE name = 'server'",
    );
    if (!row) throw new Error('the server secret could not be read');
    return row.value;
  }

  /** Whether a committed write succeeds right now (a real write, not a permission check). */
  async probeWritable(): Promise<boolean> {
    try {
      await this.sql.run(
        `INSERT INTO mail_probe (id, at) VALUES (1, $1)
         ON CONFLICT (id) DO UPDATE SET at = excluded.at`,
        [this.now()],
      );
      return true;
    } catch {
      return false;
    }
  }

  claimDigest(everyMs: number, leaseMs: number) {
    return heldMessages.claimDigest(this.db, everyMs, leaseMs);
  }

  heldForDigest(limit: number) {
    return heldMessages.heldForDigest(this.db, limit);
  }

  digestDone(ids: string[] | undefined) {
    return heldMessages.digestDone(this.db, ids);
  }

  /**
   * Calls `wake` when any instance has queued a message (LISTEN, see sql.ts), and again after
   * each reconnection: the worker sleeps between polls otherwise.
   */
  onMessageStored(wake: () => void): void {
    // A worker starting after the outbox was closed gets no listener: no one would close it.
    if (this.closing) return;
    this.listener = onQueued(this.pg, wake);
  }

  /** Commits what is pending and gives up this instance's claims; the pool stays its owner's. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.renewTimer);
      try {
        await this.intake.flush();
        await this.statements.run(
          'UPDATE mail_messages SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = $1',
          [this.instanceId],
        );
      } catch {
        // Unreachable: the claims' leases end on their own.
      } finally {
        await this.listener?.close();
      }
    })();
    return this.closing;
  }
}
