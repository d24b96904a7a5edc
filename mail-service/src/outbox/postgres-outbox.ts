/**
 * The outbox in PostgreSQL, shared by every instance: the same messages, states and operations as
 * the SQLite outbox, plus what sharing needs. A message is claimed for delivery with
 * `FOR UPDATE SKIP LOCKED` and a lease (`claimed_by`, `lease_until`) that this instance renews
 * while it sends; an instance that dies leaves its claims to the others once the lease ends.
 * A stored message is announced with NOTIFY, so idle workers of every instance wake at once.
 * The tables are made by mail-service/migrations/ (see ../postgres.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { ContactMessage } from '@site/contracts/contact';
import type { Postgres } from '../postgres';
import { bodyHash, clientHash, scopedKey, type EnqueueResult, type NewMessage } from './intake';
import { addressSpellings, normalizeAddress } from './address';
import type { EraseRequest, Erasure } from './personal-data';
import {
  SUMMARY_COLUMNS,
  toSummary,
  type ListOptions,
  type MessageCounts,
  type MessageSummary,
  type SummaryRow,
} from './queries';
import { storedMessage, type AttemptResult, type DueRow, type StoredMessage } from './queue';
import type { PurgeOptions, RetentionPolicy } from './retention';
import { emailDomainOf, readPayload, type MessageStatus } from './schema';
import type { OutboxStore } from './store';

/**
 * A claim lasts this long without renewal (it is renewed every third of it while the send runs):
 * the longest an instance that died mid-send keeps its messages from the others.
 */
export const DEFAULT_LEASE_MS = 10_000;

/**
 * Leases are set and compared on the database's clock, the one clock every instance shares: a
 * machine whose clock runs ahead cannot take another's claims early.
 */
const DB_NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** The channel a stored message is announced on. */
const CHANNEL = 'mail_outbox_stored';

export interface PostgresOutboxOptions {
  now?: () => number;
  /** How long a claim holds without renewal; renewed every third of it while the send runs. */
  leaseMs?: number;
  /** Who claims, in `claimed_by`: unique per process. */
  instanceId?: string;
}

interface ClaimedRow extends DueRow {
  lane: number;
}

/** `AND id = ANY($n)` for the ids given, or nothing when there are none (all of them). */
const onlyIds = (ids: string[] | undefined, n: number) =>
  ids && ids.length > 0 ? `AND id = ANY($${n}::text[])` : '';
const idArgs = (ids: string[] | undefined) => (ids && ids.length > 0 ? [ids] : []);

export class PostgresOutbox implements OutboxStore {
  readonly kind = 'postgres' as const;
  readonly instanceId: string;
  private readonly pool: Pool;
  private readonly now: () => number;
  private readonly leaseMs: number;
  /** Messages this instance has claimed and not yet recorded, with their claims' tokens. */
  private readonly claimed = new Map<string, number>();
  private readonly renewTimer: NodeJS.Timeout;
  private listener: PoolClient | undefined;
  private listenRetry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly pg: Postgres,
    options: PostgresOutboxOptions = {},
  ) {
    this.pool = pg.pool;
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.instanceId = options.instanceId ?? randomUUID();
    this.renewTimer = setInterval(() => void this.renewLeases(), this.leaseMs / 3);
    this.renewTimer.unref();
  }

  ready(): Promise<void> {
    return this.pg.ready;
  }

  private async query<R extends object>(sql: string, args: unknown[] = []): Promise<R[]> {
    if (this.closed) throw new Error('the outbox is closed');
    await this.pg.ready;
    return (await this.pool.query<R>(sql, args)).rows;
  }

  private async changes(sql: string, args: unknown[] = []): Promise<number> {
    if (this.closed) throw new Error('the outbox is closed');
    await this.pg.ready;
    return (await this.pool.query(sql, args)).rowCount ?? 0;
  }

  /**
   * Stores a message; resolves once PostgreSQL has committed it. A key this client used before
   * (through any instance) resolves with the message stored under it, or with a conflict; the
   * unique key decides between two instances storing the same key at once.
   */
  async enqueue(message: NewMessage): Promise<EnqueueResult> {
    const hash = bodyHash(message.payload);
    const key =
      message.idempotencyKey === undefined
        ? null
        : scopedKey(message.client, message.idempotencyKey);
    const id = randomUUID();
    const at = this.now();
    const client = clientHash(message.client);
    // One statement, so one transaction: the row and its announcement commit together.
    const inserted = await this.query<{ id: string }>(
      `WITH stored AS (
         INSERT INTO mail_messages (id, idempotency_key, body_hash, client_hash, lane, status,
           payload, email_domain, created_at, queued_at, next_attempt_at, updated_at,
           spam_reasons)
         SELECT $1::text, $2::text, $3::text, $4::text,
           CASE WHEN $5::boolean THEN 0 ELSE (SELECT COUNT(*) + 1 FROM mail_messages
             WHERE client_hash = $4::text AND status = 'queued') END,
           CASE WHEN $5::boolean THEN 'spam' ELSE 'queued' END, $6::text, $7::text,
           $8::bigint, $8::bigint, $8::bigint, $8::bigint, $9::text
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id, status)
       SELECT id, CASE WHEN status = 'queued' THEN pg_notify('${CHANNEL}', '') END AS notified
       FROM stored`,
      [
        id,
        key,
        hash,
        client,
        message.held,
        JSON.stringify(message.payload),
        emailDomainOf(message.payload.user.email),
        at,
        message.spamReasons.length > 0 ? JSON.stringify(message.spamReasons) : null,
      ],
    );
    if (inserted.length > 0) return { outcome: 'stored', messageId: id };
    const existing = key === null ? undefined : await this.byKey(key);
    if (!existing) throw new Error('the message was neither stored nor found under its key');
    return existing.body_hash === hash
      ? { outcome: 'replay', messageId: existing.id }
      : { outcome: 'conflict' };
  }

  private async byKey(key: string): Promise<{ id: string; body_hash: string | null } | undefined> {
    const [row] = await this.query<{ id: string; body_hash: string | null }>(
      'SELECT id, body_hash FROM mail_messages WHERE idempotency_key = $1',
      [key],
    );
    return row;
  }

  async replayOf(
    client: string,
    idempotencyKey: string,
    payload: ContactMessage,
  ): Promise<EnqueueResult | undefined> {
    const existing = await this.byKey(scopedKey(client, idempotencyKey));
    if (!existing) return undefined;
    return existing.body_hash === bodyHash(payload)
      ? { outcome: 'replay', messageId: existing.id }
      : { outcome: 'conflict' };
  }

  /**
   * Claims up to `limit` due messages for this instance, in fair order (a client's first waiting
   * message before anyone's second). Rows another instance is claiming right now are skipped,
   * not waited for; a claim whose lease has ended is free again.
   */
  async due(limit: number): Promise<StoredMessage[]> {
    const at = this.now();
    const rows = await this.query<ClaimedRow>(
      `UPDATE mail_messages m SET claimed_by = $1, lease_until = ${DB_NOW} + $3::bigint,
         claim = m.claim + 1
       FROM (SELECT id FROM mail_messages
             WHERE status = 'queued' AND next_attempt_at <= $2
               AND (lease_until IS NULL OR lease_until <= ${DB_NOW})
             ORDER BY lane, created_at LIMIT $4
             FOR UPDATE SKIP LOCKED) due
       WHERE m.id = due.id
       RETURNING m.id, m.payload, m.lane, m.created_at, m.queued_at, m.attempts, m.done_rcpts,
         m.claim`,
      [this.instanceId, at, this.leaseMs, limit],
    );
    rows.sort((a, b) => a.lane - b.lane || a.created_at - b.created_at);
    const out: StoredMessage[] = [];
    for (const row of rows) {
      const message = storedMessage(row);
      this.claimed.set(row.id, row.claim ?? 0);
      if (message) {
        out.push(message);
      } else {
        // An unreadable row would otherwise come back first in every round and block the queue.
        await this.record({
          id: row.id,
          claim: row.claim,
          outcome: 'failed',
          attempts: row.attempts,
          error: 'unreadable payload',
          recipients: [],
        });
      }
    }
    return out;
  }

  /**
   * Keeps the claims of the sends in progress; a failure here only shortens them. A claim that
   * passed to another instance (its token moved on) is not renewed.
   */
  private async renewLeases(): Promise<void> {
    if (this.claimed.size === 0 || this.closed) return;
    try {
      await this.pool.query(
        `UPDATE mail_messages m SET lease_until = ${DB_NOW} + $2::bigint
         FROM unnest($3::text[], $4::integer[]) AS mine(id, claim)
         WHERE m.id = mine.id AND m.claim = mine.claim AND m.claimed_by = $1`,
        [this.instanceId, this.leaseMs, [...this.claimed.keys()], [...this.claimed.values()]],
      );
    } catch {
      // The database is unreachable: the next renewal tries again.
    }
  }

  /**
   * The fencing check right before a send: the claim is still this one (no other instance claimed
   * the message since) and its lease has not lapsed; the lease is renewed in the same statement.
   * A stalled process that resumes finds its lapsed claims gone here and sends none of them.
   */
  async holdClaim(message: StoredMessage): Promise<boolean> {
    const held = await this.changes(
      `UPDATE mail_messages SET lease_until = ${DB_NOW} + $4::bigint
       WHERE id = $1 AND claim = $2 AND claimed_by = $3 AND status = 'queued'
         AND lease_until > ${DB_NOW}`,
      [message.id, message.claim ?? -1, this.instanceId, this.leaseMs],
    );
    if (held === 0) this.claimed.delete(message.id);
    return held > 0;
  }

  /** When this instance can next find something due: a claimed message counts from its lease's end. */
  async nextDueAt(): Promise<number | undefined> {
    // A lease's end, on the database's clock, as this process's clock reads it.
    const [row] = await this.query<{ at: number | null }>(
      `SELECT MIN(GREATEST(next_attempt_at,
         COALESCE(lease_until - ${DB_NOW} + $1::bigint, 0))) AS at
       FROM mail_messages WHERE status = 'queued'`,
      [this.now()],
    );
    return row?.at ?? undefined;
  }

  async retryQueuedNow(): Promise<number> {
    const now = this.now();
    return this.changes(
      "UPDATE mail_messages SET next_attempt_at = $1 WHERE status = 'queued' AND next_attempt_at > $1",
      [now],
    );
  }

  /**
   * Records the result of one attempt and gives up the claim. Only the claim's holder records:
   * if the lease ended meanwhile and another instance took the message over, its result stands.
   */
  async record(r: AttemptResult): Promise<void> {
    const at = this.now();
    // Recorded only under the claim the send was made with: a stalled instance's late result for
    // a message another instance has claimed since changes nothing.
    const mine = [this.instanceId, r.id, r.claim ?? -1, r.attempts, JSON.stringify(r.recipients)];
    const where = 'WHERE claimed_by = $1 AND id = $2 AND claim = $3';
    const release = 'claimed_by = NULL, lease_until = NULL';
    if (r.outcome === 'delivered') {
      await this.changes(
        `UPDATE mail_messages SET status = 'delivered', attempts = $4, done_rcpts = $5,
           last_error = NULL, delivered_at = $6, updated_at = $6, ${release} ${where}`,
        [...mine, at],
      );
    } else if (r.outcome === 'retry') {
      await this.changes(
        `UPDATE mail_messages SET attempts = $4, done_rcpts = $5, next_attempt_at = $6,
           last_error = $7, updated_at = $8, ${release} ${where}`,
        [...mine, r.nextAttemptAt, r.error, at],
      );
    } else {
      await this.changes(
        `UPDATE mail_messages SET status = 'failed', attempts = $4, done_rcpts = $5,
           last_error = $6, acknowledged_at = NULL, updated_at = $7, ${release} ${where}`,
        [...mine, r.error, at],
      );
    }
    this.claimed.delete(r.id);
  }

  async requeue(ids?: string[]): Promise<number> {
    const at = this.now();
    return this.changes(
      `UPDATE mail_messages SET status = 'queued', attempts = 0, next_attempt_at = $1,
         queued_at = $1, acknowledged_at = NULL, updated_at = $1
       WHERE status = 'failed' AND redacted_at IS NULL ${onlyIds(ids, 2)}`,
      [at, ...idArgs(ids)],
    );
  }

  /**
   * Releases spam an operator judged wrongly: queued, due now, in its client's lane, with the
   * reasons kept and the release time; every instance's idle worker is woken.
   */
  async release(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const at = this.now();
    const [row] = await this.query<{ n: number }>(
      `WITH released AS (
         UPDATE mail_messages m SET status = 'queued', attempts = 0, next_attempt_at = $1,
           queued_at = $1, released_at = $1, updated_at = $1,
           lane = (SELECT COUNT(*) + 1 FROM mail_messages q
                   WHERE q.client_hash = m.client_hash AND q.status = 'queued')
         WHERE status = 'spam' AND id = ANY($2::text[])
         RETURNING id)
       SELECT COUNT(*)::integer AS n,
         CASE WHEN COUNT(*) > 0 THEN pg_notify('${CHANNEL}', '') END AS notified
       FROM released`,
      [at, ids],
    );
    return row?.n ?? 0;
  }

  async acknowledge(ids?: string[]): Promise<number> {
    const at = this.now();
    return this.changes(
      `UPDATE mail_messages SET acknowledged_at = $1, updated_at = $1
       WHERE status = 'failed' AND acknowledged_at IS NULL ${onlyIds(ids, 2)}`,
      [at, ...idArgs(ids)],
    );
  }

  async counts(): Promise<MessageCounts> {
    const counts: MessageCounts = { queued: 0, delivered: 0, failed: 0, spam: 0 };
    const rows = await this.query<{ status: MessageStatus; n: number }>(
      'SELECT status, COUNT(*)::integer AS n FROM mail_messages GROUP BY status',
    );
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  async oldestQueuedAt(): Promise<number | undefined> {
    const [row] = await this.query<{ at: number | null }>(
      "SELECT MIN(queued_at) AS at FROM mail_messages WHERE status = 'queued'",
    );
    return row?.at ?? undefined;
  }

  async unacknowledgedFailed(): Promise<number> {
    const [row] = await this.query<{ n: number }>(
      `SELECT COUNT(*)::integer AS n FROM mail_messages
       WHERE status = 'failed' AND acknowledged_at IS NULL`,
    );
    return row?.n ?? 0;
  }

  async statusOf(id: string): Promise<{ status: MessageStatus; attempts: number } | undefined> {
    const [row] = await this.query<{ status: MessageStatus; attempts: number }>(
      'SELECT status, attempts FROM mail_messages WHERE id = $1',
      [id],
    );
    return row;
  }

  async list(options: ListOptions): Promise<MessageSummary[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (options.status) {
      args.push(options.status);
      where.push(`status = $${args.length}`);
    }
    if (options.ids && options.ids.length > 0) {
      args.push(options.ids);
      where.push(`id = ANY($${args.length}::text[])`);
    }
    args.push(options.limit ?? 50);
    const rows = await this.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC LIMIT $${args.length}`,
      args,
    );
    return rows.map((row) => toSummary(row, options.withContent));
  }

  /** Rows from an address: lower-case spellings found by SQL, then compared as addresses. */
  private async matching(address: string, client?: PoolClient): Promise<SummaryRow[]> {
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM mail_messages
       WHERE payload IS NOT NULL AND lower(payload::jsonb #>> '{user,email}') = ANY($1::text[])
       ORDER BY created_at`;
    const args = [addressSpellings(address)];
    const rows = client
      ? (await client.query<SummaryRow>(sql, args)).rows
      : await this.query<SummaryRow>(sql, args);
    const wanted = normalizeAddress(address);
    return rows.filter((row) => {
      const email = readPayload(row.payload)?.user.email;
      return email !== undefined && normalizeAddress(email) === wanted;
    });
  }

  async messagesFrom(address: string): Promise<MessageSummary[]> {
    return (await this.matching(address)).map((row) => toSummary(row, true));
  }

  /**
   * Deletes every message from the address and records the erasure in one transaction, then
   * VACUUMs the table so that the dead rows' space is cleaned. What PostgreSQL's WAL, its archive
   * and backups still hold is the README's "Personal data".
   */
  async erase(request: EraseRequest): Promise<string[]> {
    if (this.closed) throw new Error('the outbox is closed');
    await this.pg.ready;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const ids = (await this.matching(request.address, client)).map((row) => row.id);
      const deleted = await client.query<{ id: string }>(
        'DELETE FROM mail_messages WHERE id = ANY($1::text[]) RETURNING id',
        [ids],
      );
      await client.query(
        'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES ($1, $2, $3, $4)',
        [this.now(), request.addressHmac, deleted.rowCount ?? 0, request.files],
      );
      await client.query('COMMIT');
      // VACUUM cannot run inside a transaction: after the commit, on the same connection.
      await client.query('VACUUM mail_messages');
      return deleted.rows.map((row) => row.id);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async erasures(): Promise<Erasure[]> {
    const rows = await this.query<{
      at: number;
      address_hmac: string;
      messages: number;
      files: number;
    }>('SELECT at, address_hmac, messages, files FROM mail_erasures ORDER BY at DESC, id DESC');
    return rows.map((r) => ({
      at: r.at,
      addressHmac: r.address_hmac,
      messages: r.messages,
      files: r.files,
    }));
  }

  async claimDigest(everyMs: number, leaseMs: number): Promise<boolean> {
    const now = this.now();
    return (
      (await this.changes(
        `UPDATE mail_digest SET claimed_until = $1::bigint + $2::bigint
         WHERE id = 1 AND (claimed_until IS NULL OR claimed_until <= $1)
           AND (last_sent_at IS NULL OR last_sent_at <= $3)
           AND EXISTS (SELECT 1 FROM mail_messages WHERE status = 'spam' AND digested_at IS NULL)`,
        [now, leaseMs, now - everyMs],
      )) > 0
    );
  }

  async heldForDigest(limit: number): Promise<{ messages: MessageSummary[]; total: number }> {
    const where = "WHERE status = 'spam' AND digested_at IS NULL";
    const rows = await this.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages ${where} ORDER BY created_at LIMIT $1`,
      [limit],
    );
    const [count] = await this.query<{ n: number }>(
      `SELECT COUNT(*)::integer AS n FROM mail_messages ${where}`,
    );
    return { messages: rows.map((row) => toSummary(row, true)), total: count?.n ?? 0 };
  }

  async digestDone(ids: string[] | undefined): Promise<void> {
    const now = this.now();
    if (ids) {
      await this.changes(
        `WITH listed AS (UPDATE mail_messages SET digested_at = $1 WHERE id = ANY($2::text[]))
         UPDATE mail_digest SET last_sent_at = $1, claimed_until = NULL WHERE id = 1`,
        [now, ids],
      );
    } else await this.changes('UPDATE mail_digest SET claimed_until = NULL WHERE id = 1');
  }

  /** The server secret every instance on this database shares: the first one to ask makes it. */
  async storedSecret(): Promise<string> {
    const [row] = await this.query<{ value: string }>(
      `WITH made AS (
         INSERT INTO mail_secrets (name, value) VALUES ('server', $1)
         ON CONFLICT (name) DO NOTHING RETURNING value)
       SELECT value FROM made UNION ALL SELECT value FROM mail_secrets WHERE name = 'server'`,
      [randomBytes(32).toString('base64url')],
    );
    if (!row) throw new Error('the server secret could not be read');
    return row.value;
  }

  async purge(options: PurgeOptions): Promise<number> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (options.ids && options.ids.length > 0) {
      args.push(options.ids);
      where.push(`id = ANY($${args.length}::text[])`);
    }
    if (options.status) {
      args.push(options.status);
      where.push(`status = $${args.length}`);
    }
    if (options.before !== undefined) {
      args.push(options.before);
      where.push(`updated_at < $${args.length}`);
    }
    if (where.length === 0) throw new Error('purge needs ids, a state or an age');
    return this.changes(`DELETE FROM mail_messages WHERE ${where.join(' AND ')}`, args);
  }

  /** The retention policy of the SQLite outbox (see Retention.apply), in one transaction. */
  async applyRetention(policy: RetentionPolicy): Promise<{ redacted: number; deleted: number }> {
    if (this.closed) throw new Error('the outbox is closed');
    await this.pg.ready;
    const now = this.now();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const deleted =
        (
          await client.query(
            `DELETE FROM mail_messages
             WHERE status = 'spam' AND created_at < $1 AND digested_at IS NOT NULL`,
            [now - policy.spamMs],
          )
        ).rowCount ?? 0;
      const redacted =
        (
          await client.query(
            `UPDATE mail_messages SET payload = NULL, idempotency_key = NULL, body_hash = NULL,
               client_hash = NULL, redacted_at = $1
             WHERE redacted_at IS NULL AND updated_at < $2
               AND (status = 'delivered'
                 OR (status = 'failed' AND acknowledged_at IS NOT NULL AND acknowledged_at < $2))`,
            [now, now - policy.deliveredMs],
          )
        ).rowCount ?? 0;
      await client.query('COMMIT');
      return { redacted, deleted };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async probeWritable(): Promise<boolean> {
    try {
      await this.changes(
        `INSERT INTO mail_probe (id, at) VALUES (1, $1)
         ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at`,
        [this.now()],
      );
      return true;
    } catch {
      return false;
    }
  }

  /**
   * LISTENs on a connection of its own for messages stored by any instance. When that connection
   * is lost it is opened again after a second; meanwhile the worker's polling still finds work.
   */
  onMessageStored(wake: () => void): void {
    const listen = async () => {
      if (this.closed) return;
      try {
        await this.pg.ready;
        const client = await this.pool.connect();
        if (this.closed) {
          client.release();
          return;
        }
        this.listener = client;
        client.on('notification', () => wake());
        client.on('error', () => {
          if (this.listener === client) this.listener = undefined;
          client.release(true);
          retry();
        });
        await client.query(`LISTEN ${CHANNEL}`);
        // Whatever was stored while no one listened.
        wake();
      } catch {
        retry();
      }
    };
    const retry = () => {
      if (this.closed) return;
      this.listenRetry = setTimeout(() => void listen(), 1000);
      this.listenRetry.unref();
    };
    void listen();
  }

  /** Gives up this instance's claims (the sends have finished) and its connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.renewTimer);
    if (this.listenRetry) clearTimeout(this.listenRetry);
    try {
      await this.pool.query(
        'UPDATE mail_messages SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = $1',
        [this.instanceId],
      );
    } catch {
      // Unreachable: the leases end on their own.
    } finally {
      this.closed = true;
      const listener = this.listener;
      this.listener = undefined;
      listener?.release(true);
    }
  }
}
