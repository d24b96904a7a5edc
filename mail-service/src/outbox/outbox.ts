/**
 * The outbox: every accepted message, durably, in one of two stores (sql.ts): the SQLite file of
 * one instance, or the PostgreSQL every instance shares. One object, the one the API, the delivery
 * worker, the digest and the outbox command hold, with each operation written once; only how a
 * statement runs and the few words the dialects spell differently belong to the store.
 *
 * Delivery claims: a worker claims due messages in fair order with a lease (`claimed_by`,
 * `lease_until`, on the store's clock) and a fencing token (`claim`, counted up by each claim).
 * With a shared store the lease is renewed while the sends run, the token is checked right before
 * each send, and a result is recorded only under it: an instance that died or stalled past its
 * lease leaves its messages to the others, and sends or records none of them once they passed on.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ContactMessage } from '@site/contracts/contact';
import type { Listener } from '@site/postgres';
import { list, onlyIds, someIds, type OutboxContext } from './context';
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
import { sqliteStore, type MessageStatus } from './schema';
import type { Sql, Store } from './sql';

/** A claim lasts this long without renewal (renewed every third of it while the send runs). */
export const DEFAULT_LEASE_MS = 10_000;

export interface OutboxOptions {
  now?: () => number;
  /** How long a claim holds without renewal (a shared store renews it every third of that). */
  leaseMs?: number;
}

export class Outbox {
  readonly kind: Store['kind'];
  /** Who claims, in `claimed_by`: unique per process. */
  readonly instanceId = randomUUID();
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly intake: Intake;
  /** Messages this instance has claimed and not yet recorded, with their claims' tokens. */
  private readonly claimed = new Map<string, number>();
  private readonly renewTimer: NodeJS.Timeout | undefined;
  private listener: Listener | undefined;
  private closing: Promise<void> | undefined;
  /** What the operations kept in retention.ts and held.ts run on. */
  private readonly db: OutboxContext;

  constructor(
    private readonly store: Store,
    { now = Date.now, leaseMs = DEFAULT_LEASE_MS }: OutboxOptions = {},
  ) {
    this.kind = store.kind;
    this.now = now;
    this.leaseMs = leaseMs;
    this.intake = new Intake(store, now);
    this.db = { sql: () => this.sql, store, now };
    if (store.shared) {
      this.renewTimer = setInterval(() => void this.renewLeases(), leaseMs / 3);
      this.renewTimer.unref();
    }
  }

  /** The SQLite outbox in `dir` (made if needed). */
  static open(dir: string, now?: () => number): Outbox {
    return new Outbox(sqliteStore(dir), { ...(now ? { now } : {}) });
  }

  /** The store's statements, while the outbox is open. */
  private get sql(): Sql {
    if (this.closing) throw new Error('the outbox is closed');
    return this.store.sql;
  }

  /** Resolves once the store can be used (PostgreSQL: connected and migrated); rejects if not. */
  ready(): Promise<void> {
    return this.store.ready;
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
    const { clock, skipLocked } = this.store;
    const due = `SELECT id AS due_id FROM mail_messages
       WHERE status = 'queued' AND next_attempt_at <= ?
         AND (lease_until IS NULL OR lease_until <= ${clock})
       ORDER BY lane, created_at LIMIT ? ${skipLocked}`;
    const columns = 'id, payload, lane, created_at, queued_at, attempts, done_rcpts, claim';
    // With no one else delivering, nothing needs claiming: a read, as it always was (on a full
    // disk the message is still sent, and only its result waits for space).
    const rows = this.store.shared
      ? await this.sql.all<DueRow>(
          `UPDATE mail_messages SET claimed_by = ?, lease_until = ${clock} + ?, claim = claim + 1
           FROM (${due}) AS due WHERE mail_messages.id = due.due_id RETURNING ${columns}`,
          [this.instanceId, this.leaseMs, this.now(), limit],
        )
      : await this.sql.all<DueRow>(`SELECT ${columns} FROM mail_messages WHERE id IN (${due})`, [
          this.now(),
          limit,
        ]);
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
   * Right before a send: whether this instance's claim still holds (the row carries its token and
   * the lease has not lapsed), renewing the lease if so, in one statement. False means another
   * instance has the message now: it must not be sent. Always true when no one else delivers.
   */
  async holdClaim(message: Pick<StoredMessage, 'id' | 'claim'>): Promise<boolean> {
    if (!this.store.shared) return true;
    const { clock } = this.store;
    const held = await this.sql.run(
      `UPDATE mail_messages SET lease_until = ${clock} + ?
       WHERE id = ? AND claim = ? AND claimed_by = ? AND status = 'queued'
         AND lease_until > ${clock}`,
      [this.leaseMs, message.id, message.claim ?? -1, this.instanceId],
    );
    if (held === 0) this.claimed.delete(message.id);
    return held > 0;
  }

  /** When this instance can next find something due: a claimed message from its lease's end. */
  async nextDueAt(): Promise<number | undefined> {
    const { clock, greatest } = this.store;
    // A lease's end, on the store's clock, as this process's clock reads it.
    const [row] = await this.sql.all<{ at: number | null }>(
      `SELECT MIN(${greatest}(next_attempt_at, COALESCE(lease_until - ${clock} + ?, 0))) AS at
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
      "UPDATE mail_messages SET next_attempt_at = ? WHERE status = 'queued' AND next_attempt_at > ?",
      [now, now],
    );
  }

  /**
   * Records the result of one attempt, right after the send, so that a crash can repeat at most
   * the sends in progress, and gives up the claim. With a shared store only under the claim the
   * send was made with: a stalled instance's late result for a message claimed since changes
   * nothing. The commit does not wait for the disk: losing it only sends the message again.
   */
  async record(r: AttemptResult): Promise<void> {
    const at = this.now();
    const fence = this.store.shared ? 'AND claimed_by = ? AND claim = ?' : '';
    const where = [r.id, ...(this.store.shared ? [this.instanceId, r.claim ?? -1] : [])];
    const [set, values] =
      r.outcome === 'delivered'
        ? ["status = 'delivered', last_error = NULL, delivered_at = ?", [at]]
        : r.outcome === 'retry'
          ? ['next_attempt_at = ?, last_error = ?', [r.nextAttemptAt, r.error]]
          : ["status = 'failed', last_error = ?, acknowledged_at = NULL", [r.error]];
    await this.sql.run(
      `UPDATE mail_messages SET ${set}, attempts = ?, done_rcpts = ?, updated_at = ?,
         claimed_by = NULL, lease_until = NULL WHERE id = ? ${fence}`,
      [...values, r.attempts, JSON.stringify(r.recipients), at, ...where],
      { durable: false },
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
      `UPDATE mail_messages SET status = 'queued', attempts = 0, next_attempt_at = ?,
         queued_at = ?, acknowledged_at = NULL, updated_at = ?
       WHERE status = 'failed' AND redacted_at IS NULL ${onlyIds(ids)}`,
      [at, at, at, ...(ids ?? [])],
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
      `UPDATE mail_messages SET acknowledged_at = ?, updated_at = ?
       WHERE status = 'failed' AND acknowledged_at IS NULL ${onlyIds(ids)}`,
      [at, at, ...(ids ?? [])],
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
      'SELECT status, attempts FROM mail_messages WHERE id = ?',
      [id],
    );
    return row;
  }

  /** Messages by state, newest first; the content only when asked for. */
  async list(options: ListOptions): Promise<MessageSummary[]> {
    const where = ['1 = 1'];
    const args: unknown[] = [];
    if (options.status) {
      where.push('status = ?');
      args.push(options.status);
    }
    if (someIds(options.ids)) {
      where.push(`id IN ${list(options.ids)}`);
      args.push(...options.ids);
    }
    const rows = await this.sql.all<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC LIMIT ?`,
      [...args, options.limit ?? 50],
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

  /** The server secret kept in the store, made by the first process that asks. */
  async storedSecret(): Promise<string> {
    await this.sql.run(
      "INSERT INTO mail_secrets (name, value) VALUES ('server', ?) ON CONFLICT (name) DO NOTHING",
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
        `INSERT INTO mail_probe (id, at) VALUES (1, ?)
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
   * Calls `wake` when another process has stored a message (PostgreSQL: LISTEN, on a connection
   * of its own that is made again when lost), and again after each reconnection. A shared store's
   * workers sleep between polls otherwise; a store no one else writes to has nothing to listen for.
   */
  onMessageStored(wake: () => void): void {
    this.listener = this.store.onAnnounced(wake);
  }

  /** Commits what is pending, gives up this instance's claims, and closes the store. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.renewTimer);
      try {
        await this.intake.flush();
        if (this.store.shared) {
          await this.store.sql.run(
            'UPDATE mail_messages SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?',
            [this.instanceId],
          );
        }
      } catch {
        // Unreachable: the claims' leases end on their own.
      } finally {
        await this.listener?.close();
        await this.store.close();
      }
    })();
    return this.closing;
  }
}
