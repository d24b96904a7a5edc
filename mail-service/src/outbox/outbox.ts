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
import { normalizeAddress } from './address';
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
import { readPayload, sqliteStore, type MessageStatus } from './schema';
import type { Sql, Store } from './sql';

/** A claim lasts this long without renewal (renewed every third of it while the send runs). */
export const DEFAULT_LEASE_MS = 10_000;

export interface RetentionPolicy {
  /** Delivered messages (and acknowledged failed ones) keep their content this long. */
  deliveredMs: number;
  spamMs: number;
}

export interface PurgeOptions {
  ids?: string[];
  status?: MessageStatus;
  before?: number;
}

/** One erasure request served, as the audit keeps it: never the address, only its HMAC. */
export interface Erasure {
  at: number;
  addressHmac: string;
  messages: number;
  files: number;
}

export interface EraseRequest {
  address: string;
  /** The HMAC of the lower-cased address with the server secret (see src/secret.ts). */
  addressHmac: string;
  /** Copies removed outside the outbox (the mailbox's .eml files), for the audit record. */
  files: number;
}

export interface OutboxOptions {
  now?: () => number;
  /** How long a claim holds without renewal (a shared store renews it every third of that). */
  leaseMs?: number;
}

/** `(?, ?, ?)` for a list of values. */
const list = (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`;
const someIds = (ids: string[] | undefined): ids is string[] => !!ids && ids.length > 0;
/** `AND id IN (...)` for the ids given, or nothing when there are none (all of them). */
const onlyIds = (ids: string[] | undefined) => (someIds(ids) ? `AND id IN ${list(ids)}` : '');

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

  constructor(
    private readonly store: Store,
    { now = Date.now, leaseMs = DEFAULT_LEASE_MS }: OutboxOptions = {},
  ) {
    this.kind = store.kind;
    this.now = now;
    this.leaseMs = leaseMs;
    this.intake = new Intake(store, now);
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

  /**
   * Releases held messages judged wrongly (the digest's link, or an operator): queued, due now, in
   * their client's lane as if just accepted, with their reasons kept and the release time.
   */
  async release(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const at = this.now();
    return this.sql.transaction(async (tx) => {
      const n = await tx.run(
        `UPDATE mail_messages SET status = 'queued', attempts = 0, next_attempt_at = ?,
           queued_at = ?, released_at = ?, updated_at = ?,
           lane = (SELECT COUNT(*) + 1 FROM mail_messages q
                   WHERE q.client_hash = mail_messages.client_hash AND q.status = 'queued')
         WHERE status = 'spam' ${onlyIds(ids)}`,
        [at, at, at, at, ...ids],
      );
      if (n > 0) await this.store.announce(tx);
      return n;
    });
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

  /** Deletes messages for good: the ones named, or every one in a state older than `before`. */
  async purge(options: PurgeOptions): Promise<number> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, ...values: unknown[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (someIds(options.ids)) add(`id IN ${list(options.ids)}`, ...options.ids);
    if (options.status) add('status = ?', options.status);
    if (options.before !== undefined) add('updated_at < ?', options.before);
    if (where.length === 0) throw new Error('purge needs ids, a state or an age');
    return this.sql.run(`DELETE FROM mail_messages WHERE ${where.join(' AND ')}`, args);
  }

  /**
   * Applies the retention policy: a held message is deleted once older than `spamMs` and listed
   * in a digest; delivered messages, and failed ones an operator has acknowledged, lose their
   * personal data (name, address, subject, text, client and key hashes) once older than
   * `deliveredMs`. What stays of them is the id, the state, the dates and the sender's mail
   * domain, so that "was message X delivered?" can still be answered.
   */
  async applyRetention(policy: RetentionPolicy): Promise<{ redacted: number; deleted: number }> {
    const now = this.now();
    const old = now - policy.deliveredMs;
    return this.sql.transaction(async (tx) => ({
      deleted: await tx.run(
        `DELETE FROM mail_messages
         WHERE status = 'spam' AND created_at < ? AND digested_at IS NOT NULL`,
        [now - policy.spamMs],
      ),
      redacted: await tx.run(
        `UPDATE mail_messages SET payload = NULL, idempotency_key = NULL, body_hash = NULL,
           client_hash = NULL, redacted_at = ?
         WHERE redacted_at IS NULL AND updated_at < ?
           AND (status = 'delivered'
             OR (status = 'failed' AND acknowledged_at IS NOT NULL AND acknowledged_at < ?))`,
        [now, old, old],
      ),
    }));
  }

  /**
   * The rows from an address, compared as addresses (any case, an internationalised domain in
   * either form) in JavaScript: SQLite's lower() knows only ASCII letters.
   */
  private async matching(sql: Sql, address: string): Promise<SummaryRow[]> {
    const wanted = normalizeAddress(address);
    const rows = await sql.all<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages WHERE payload IS NOT NULL ORDER BY created_at`,
    );
    return rows.filter((row) => {
      const email = readPayload(row.payload)?.user.email;
      return email !== undefined && normalizeAddress(email) === wanted;
    });
  }

  /** Every stored message from an address, oldest first, with its content. */
  async messagesFrom(address: string): Promise<MessageSummary[]> {
    return (await this.matching(this.sql, address)).map((row) => toSummary(row, true));
  }

  /**
   * Deletes every message from the address and records the erasure (an HMAC of the address, the
   * count) in one transaction, then scrubs the store's files (see Store.scrub); returns the ids.
   */
  async erase(request: EraseRequest): Promise<string[]> {
    await this.intake.flush();
    const ids = await this.sql.transaction(async (tx) => {
      const found = (await this.matching(tx, request.address)).map((row) => row.id);
      if (found.length > 0) {
        await tx.run(`DELETE FROM mail_messages WHERE id IN ${list(found)}`, found);
      }
      await tx.run(
        'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES (?, ?, ?, ?)',
        [this.now(), request.addressHmac, found.length, request.files],
      );
      return found;
    });
    await this.store.scrub();
    return ids;
  }

  /** The erasures served, newest first. */
  async erasures(): Promise<Erasure[]> {
    const rows = await this.sql.all<Record<'at' | 'messages' | 'files', number>>(
      `SELECT at, address_hmac AS "addressHmac", messages, files FROM mail_erasures
       ORDER BY at DESC, id DESC`,
    );
    return rows as unknown as Erasure[];
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

  /**
   * Claims the sending of the digest of held messages for `leaseMs`: true when one is due (none
   * sent in the last `everyMs`), some held message has not been in one yet, and no other process
   * is sending one now.
   */
  async claimDigest(everyMs: number, leaseMs: number): Promise<boolean> {
    const now = this.now();
    const claimed = await this.sql.run(
      `UPDATE mail_digest SET claimed_until = ?
       WHERE id = 1 AND (claimed_until IS NULL OR claimed_until <= ?)
         AND (last_sent_at IS NULL OR last_sent_at <= ?)
         AND EXISTS (SELECT 1 FROM mail_messages WHERE status = 'spam' AND digested_at IS NULL)`,
      [now + leaseMs, now, now - everyMs],
    );
    return claimed > 0;
  }

  /** The held messages no digest has listed yet, oldest first, at most `limit`, and how many. */
  async heldForDigest(limit: number): Promise<{ messages: MessageSummary[]; total: number }> {
    const where = "WHERE status = 'spam' AND digested_at IS NULL";
    const rows = await this.sql.all<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages ${where} ORDER BY created_at LIMIT ?`,
      [limit],
    );
    const [count] = await this.sql.all<{ n: number }>(
      `SELECT COUNT(*) AS n FROM mail_messages ${where}`,
    );
    return { messages: rows.map((row) => toSummary(row, true)), total: Number(count?.n ?? 0) };
  }

  /** The digest listing `ids` was sent (or, with undefined, could not be): gives up the claim. */
  async digestDone(ids: string[] | undefined): Promise<void> {
    const now = this.now();
    await this.sql.transaction(async (tx) => {
      if (someIds(ids)) {
        await tx.run(`UPDATE mail_messages SET digested_at = ? WHERE id IN ${list(ids)}`, [
          now,
          ...ids,
        ]);
      }
      await tx.run(
        `UPDATE mail_digest SET claimed_until = NULL,
           last_sent_at = CASE WHEN ? = 1 THEN ? ELSE last_sent_at END WHERE id = 1`,
        [ids ? 1 : 0, now],
      );
    });
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
