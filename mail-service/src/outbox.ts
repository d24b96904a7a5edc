import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { z } from 'zod';
import type { ContactMessage } from '@site/shared/contact';

export type MessageStatus = 'queued' | 'delivered' | 'failed' | 'spam';
export const MESSAGE_STATUSES: readonly MessageStatus[] = ['queued', 'delivered', 'failed', 'spam'];

/** A message as the delivery worker reads it back. */
export interface StoredMessage {
  id: string;
  payload: ContactMessage;
  createdAt: number;
  attempts: number;
  /** Recipients the relay has already accepted this message for (a partial earlier attempt). */
  doneRecipients: string[];
}

export interface NewMessage {
  payload: ContactMessage;
  spam: boolean;
  /** Who sent it, as the rate limiter counts them; stored only as a hash. */
  client: string;
  idempotencyKey?: string | undefined;
}

export type EnqueueResult =
  | { outcome: 'stored'; messageId: string }
  /** The key was used before for the same message: nothing new was stored. */
  | { outcome: 'replay'; messageId: string }
  /** The key was used before by this client for a different message. */
  | { outcome: 'conflict' };

export type AttemptResult =
  | { id: string; outcome: 'delivered'; attempts: number; recipients: string[] }
  | {
      id: string;
      outcome: 'retry';
      attempts: number;
      nextAttemptAt: number;
      error: string;
      recipients: string[];
    }
  | { id: string; outcome: 'failed'; attempts: number; error: string; recipients: string[] };

export type MessageCounts = Record<MessageStatus, number>;

/** One row as operators see it; personal data only when asked for. */
export interface MessageSummary {
  id: string;
  status: MessageStatus;
  createdAt: number;
  updatedAt: number;
  deliveredAt: number | null;
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  acknowledged: boolean;
  redacted: boolean;
  emailDomain: string | null;
  payload?: ContactMessage | null;
}

export interface RetentionPolicy {
  /** Delivered messages (and acknowledged failed ones) keep their content this long. */
  deliveredMs: number;
  spamMs: number;
}

// What was stored is read back leniently: a message accepted under older rules is still delivered.
const storedPayload = z.object({
  user: z.object({ name: z.string(), email: z.string() }),
  message: z.object({ subject: z.string(), body: z.string() }),
  website: z.string().optional(),
});

function readPayload(text: string | null): ContactMessage | undefined {
  if (text === null) return undefined;
  try {
    const parsed = storedPayload.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The hash a message's content is compared by: its validated, trimmed fields. */
export const bodyHash = (payload: ContactMessage): string =>
  sha256(
    JSON.stringify([
      payload.user.name,
      payload.user.email,
      payload.message.subject,
      payload.message.body,
      payload.website ?? '',
    ]),
  );

// Keys are scoped to the client: another client using the same key gets its own message, and a
// client cannot learn or claim someone else's. The raw key and address are never stored.
const scopedKey = (client: string, key: string) => sha256(`${client}\n${key}`);
const clientHash = (client: string) => sha256(`client\n${client}`).slice(0, 32);

const emailDomainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

const SCHEMA_VERSION = 2;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS messages (
    id              TEXT PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    body_hash       TEXT,
    client_hash     TEXT,
    lane            INTEGER NOT NULL DEFAULT 1,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
    payload         TEXT,
    email_domain    TEXT,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    done_rcpts      TEXT,
    delivered_at    INTEGER,
    acknowledged_at INTEGER,
    redacted_at     INTEGER,
    updated_at      INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS messages_fair ON messages (status, lane, created_at);
  CREATE INDEX IF NOT EXISTS messages_client ON messages (client_hash, status);
  CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
`;

/** Brings an outbox written by an earlier version to the current schema, keeping every row. */
function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version >= SCHEMA_VERSION) return;
  const old = db
    .prepare<[], { n: number }>(
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'messages'",
    )
    .get();
  db.transaction(() => {
    if (old && old.n > 0) {
      db.exec('DROP INDEX IF EXISTS messages_due; ALTER TABLE messages RENAME TO messages_v1;');
      db.exec(SCHEMA);
      // Version 1 keys were global and unhashed: they cannot be scoped afterwards, so they go.
      db.exec(`INSERT INTO messages (id, status, payload, created_at, attempts, next_attempt_at,
                 last_error, delivered_at, updated_at)
               SELECT id, status, payload, created_at, attempts, next_attempt_at, last_error,
                 CASE status WHEN 'delivered' THEN updated_at END, updated_at FROM messages_v1;
               DROP TABLE messages_v1;`);
      for (const row of db
        .prepare<[], { id: string; payload: string }>('SELECT id, payload FROM messages')
        .all()) {
        const p = readPayload(row.payload);
        if (p) {
          db.prepare('UPDATE messages SET email_domain = ? WHERE id = ?').run(
            emailDomainOf(p.user.email),
            row.id,
          );
        }
      }
    } else {
      db.exec(SCHEMA);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

interface PendingInsert {
  id: string;
  message: NewMessage;
  key: string | null;
  hash: string;
  resolve: (result: EnqueueResult) => void;
  reject: (error: unknown) => void;
}

interface DueRow {
  id: string;
  payload: string | null;
  created_at: number;
  attempts: number;
  done_rcpts: string | null;
}

interface SummaryRow {
  id: string;
  status: MessageStatus;
  payload: string | null;
  email_domain: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  acknowledged_at: number | null;
  redacted_at: number | null;
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare<
      [
        string,
        string | null,
        string,
        string,
        number,
        string,
        string,
        string,
        number,
        number,
        number,
      ]
    >(
      `INSERT INTO messages (id, idempotency_key, body_hash, client_hash, lane, status, payload,
         email_domain, created_at, next_attempt_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`,
    ),
    byKey: db.prepare<[string], { id: string; body_hash: string | null }>(
      'SELECT id, body_hash FROM messages WHERE idempotency_key = ?',
    ),
    queuedOfClient: db.prepare<[string], { n: number }>(
      "SELECT COUNT(*) AS n FROM messages WHERE client_hash = ? AND status = 'queued'",
    ),
    // Fair order: a client's first waiting message (lane 1) goes before anyone's second, so one
    // client's flood cannot hold back a message from someone else.
    due: db.prepare<[number, number], DueRow>(
      `SELECT id, payload, created_at, attempts, done_rcpts FROM messages
       WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY lane, created_at LIMIT ?`,
    ),
    nextDue: db.prepare<[], { at: number | null }>(
      "SELECT MIN(next_attempt_at) AS at FROM messages WHERE status = 'queued'",
    ),
    delivered: db.prepare<[number, string, number, number, string]>(
      `UPDATE messages SET status = 'delivered', attempts = ?, done_rcpts = ?, last_error = NULL,
         delivered_at = ?, updated_at = ? WHERE id = ?`,
    ),
    retry: db.prepare<[number, number, string, string, number, string]>(
      `UPDATE messages SET attempts = ?, next_attempt_at = ?, last_error = ?, done_rcpts = ?,
         updated_at = ? WHERE id = ?`,
    ),
    failed: db.prepare<[number, string, string, number, string]>(
      `UPDATE messages SET status = 'failed', attempts = ?, last_error = ?, done_rcpts = ?,
         acknowledged_at = NULL, updated_at = ? WHERE id = ?`,
    ),
    counts: db.prepare<[], { status: MessageStatus; n: number }>(
      'SELECT status, COUNT(*) AS n FROM messages GROUP BY status',
    ),
    oldestQueued: db.prepare<[], { at: number | null }>(
      "SELECT MIN(created_at) AS at FROM messages WHERE status = 'queued'",
    ),
    unacknowledged: db.prepare<[], { n: number }>(
      "SELECT COUNT(*) AS n FROM messages WHERE status = 'failed' AND acknowledged_at IS NULL",
    ),
    probe: db.prepare<[number]>('INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)'),
    retryNow: db.prepare<[number, number]>(
      "UPDATE messages SET next_attempt_at = ? WHERE status = 'queued' AND next_attempt_at > ?",
    ),
    status: db.prepare<[string], { status: MessageStatus; attempts: number }>(
      'SELECT status, attempts FROM messages WHERE id = ?',
    ),
  };
}

const SUMMARY_COLUMNS = `id, status, payload, email_domain, created_at, updated_at, delivered_at,
  attempts, next_attempt_at, last_error, acknowledged_at, redacted_at`;

/**
 * The outbox: every accepted message, durably, in SQLite (WAL, synchronous=FULL, so a commit has
 * reached the disk when it returns).
 *
 * Inserts are group-committed: the messages that arrive in one turn of the event loop are written
 * in one transaction, and each request is answered only after that transaction has committed. One
 * fsync then covers many messages, which is what keeps the durable endpoint fast under load.
 */
export class Outbox {
  private pending: PendingInsert[] = [];
  private readonly pendingKeys = new Map<string, { hash: string; promise: Promise<string> }>();
  private flushScheduled = false;
  private closed = false;
  private readonly db: Database.Database;
  private readonly statements: ReturnType<typeof prepare>;

  private constructor(
    readonly file: string,
    private readonly now: () => number,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);
    this.statements = prepare(this.db);
  }

  /** Opens (creating if needed) the outbox in `dir`. */
  static open(dir: string, now: () => number = Date.now): Outbox {
    mkdirSync(dir, { recursive: true });
    return new Outbox(path.join(dir, 'outbox.sqlite'), now);
  }

  /**
   * Stores a message; resolves once it is committed to disk. A key this client used before
   * resolves with the message stored under it (and stores nothing), or with a conflict when that
   * message was a different one.
   */
  enqueue(message: NewMessage): Promise<EnqueueResult> {
    if (this.closed) return Promise.reject(new Error('the outbox is closed'));
    const hash = bodyHash(message.payload);
    const key =
      message.idempotencyKey === undefined
        ? null
        : scopedKey(message.client, message.idempotencyKey);
    if (key !== null) {
      const earlier = this.lookup(key, hash);
      if (earlier) return earlier;
    }
    let resolveId: (id: string) => void = () => {};
    const idPromise = new Promise<string>((r) => (resolveId = r));
    const promise = new Promise<EnqueueResult>((resolve, reject) => {
      this.pending.push({
        id: randomUUID(),
        message,
        key,
        hash,
        resolve: (result) => {
          if (result.outcome !== 'conflict') resolveId(result.messageId);
          resolve(result);
        },
        reject,
      });
    });
    if (key !== null) {
      this.pendingKeys.set(key, { hash, promise: idPromise });
      promise.catch(() => {});
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // setImmediate runs after the poll phase, so every request read in this turn joins the batch.
      setImmediate(() => this.flush());
    }
    return promise;
  }

  /**
   * What an idempotency key of this client already stands for, if anything: the same message
   * (a replay) or a different one (a conflict). Undefined when the key is new.
   */
  replayOf(
    client: string,
    idempotencyKey: string,
    payload: ContactMessage,
  ): Promise<EnqueueResult> | undefined {
    if (this.closed) return undefined;
    return this.lookup(scopedKey(client, idempotencyKey), bodyHash(payload));
  }

  private lookup(key: string, hash: string): Promise<EnqueueResult> | undefined {
    const inFlight = this.pendingKeys.get(key);
    if (inFlight) {
      if (inFlight.hash !== hash) return Promise.resolve({ outcome: 'conflict' });
      return inFlight.promise.then((messageId) => ({ outcome: 'replay', messageId }));
    }
    const existing = this.statements.byKey.get(key);
    if (!existing) return undefined;
    if (existing.body_hash !== hash) return Promise.resolve({ outcome: 'conflict' });
    return Promise.resolve({ outcome: 'replay', messageId: existing.id });
  }

  /** Commits the pending inserts now (also called on shutdown). */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const results: EnqueueResult[] = [];
    try {
      const at = this.now();
      this.db.transaction(() => {
        for (const p of batch) {
          const client = clientHash(p.message.client);
          const lane = p.message.spam ? 0 : this.statements.queuedOfClient.get(client)!.n + 1;
          const info = this.statements.insert.run(
            p.id,
            p.key,
            p.hash,
            client,
            lane,
            p.message.spam ? 'spam' : 'queued',
            JSON.stringify(p.message.payload),
            emailDomainOf(p.message.payload.user.email),
            at,
            at,
            at,
          );
          // Only another process sharing this file can have taken the key in the meantime.
          const existing =
            info.changes === 0 && p.key !== null ? this.statements.byKey.get(p.key) : undefined;
          results.push(
            existing
              ? existing.body_hash === p.hash
                ? { outcome: 'replay', messageId: existing.id }
                : { outcome: 'conflict' }
              : { outcome: 'stored', messageId: p.id },
          );
        }
      })();
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    } finally {
      for (const p of batch) if (p.key !== null) this.pendingKeys.delete(p.key);
    }
    batch.forEach((p, i) => p.resolve(results[i] as EnqueueResult));
  }

  /** Queued messages whose next attempt is due, in fair order (see `due` above). */
  due(limit: number): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (const row of this.statements.due.all(this.now(), limit)) {
      const payload = readPayload(row.payload);
      if (payload) {
        out.push({
          id: row.id,
          payload,
          createdAt: row.created_at,
          attempts: row.attempts,
          doneRecipients: row.done_rcpts ? (JSON.parse(row.done_rcpts) as string[]) : [],
        });
      } else {
        // An unreadable row would otherwise come back first in every round and block the queue.
        this.statements.failed.run(row.attempts, 'unreadable payload', '[]', this.now(), row.id);
      }
    }
    return out;
  }

  /** When the next queued message is due (ms since the epoch), if any is queued. */
  nextDueAt(): number | undefined {
    return this.statements.nextDue.get()?.at ?? undefined;
  }

  /**
   * Makes every queued message due now; returns how many there are. Used at start-up: whoever
   * restarts the service (after fixing SMTP_URL, say) expects the queue to move at once, not
   * after the backoff an earlier run had set.
   */
  retryQueuedNow(): number {
    const now = this.now();
    return this.statements.retryNow.run(now, now).changes;
  }

  /**
   * Records the result of one delivery attempt. Called right after each send, so that a crash
   * can repeat at most the sends that were in progress, never a whole batch.
   */
  record(r: AttemptResult): void {
    const at = this.now();
    const done = JSON.stringify(r.recipients);
    // This commit does not wait for the disk. Losing it in a power cut only means the message is
    // sent again (with the same Message-ID); a process crash loses nothing, and the next full
    // commit makes it durable anyway, as the WAL is written in order. The fsync stays with the
    // writes that a 202 stands for, where it matters.
    this.db.pragma('synchronous = NORMAL');
    try {
      if (r.outcome === 'delivered') this.statements.delivered.run(r.attempts, done, at, at, r.id);
      else if (r.outcome === 'retry')
        this.statements.retry.run(r.attempts, r.nextAttemptAt, r.error, done, at, r.id);
      else this.statements.failed.run(r.attempts, r.error, done, at, r.id);
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  counts(): MessageCounts {
    const counts: MessageCounts = { queued: 0, delivered: 0, failed: 0, spam: 0 };
    for (const row of this.statements.counts.all()) counts[row.status] = row.n;
    return counts;
  }

  /** When the oldest undelivered message was accepted, if any is queued. */
  oldestQueuedAt(): number | undefined {
    return this.statements.oldestQueued.get()?.at ?? undefined;
  }

  /** Failed messages no operator has looked at yet. */
  unacknowledgedFailed(): number {
    return this.statements.unacknowledged.get()?.n ?? 0;
  }

  /** The status of one message, for operators and tests. */
  statusOf(id: string): { status: MessageStatus; attempts: number } | undefined {
    return this.statements.status.get(id);
  }

  /** Messages by state, newest first; the content only when asked for. */
  list(options: {
    status?: MessageStatus | undefined;
    ids?: string[] | undefined;
    limit?: number | undefined;
    withContent?: boolean | undefined;
  }): MessageSummary[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (options.status) {
      where.push('status = ?');
      args.push(options.status);
    }
    if (options.ids && options.ids.length > 0) {
      where.push(`id IN (${options.ids.map(() => '?').join(', ')})`);
      args.push(...options.ids);
    }
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at DESC LIMIT ?`;
    args.push(options.limit ?? 50);
    return this.db
      .prepare<(string | number)[], SummaryRow>(sql)
      .all(...args)
      .map((row) => ({
        id: row.id,
        status: row.status,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        deliveredAt: row.delivered_at,
        attempts: row.attempts,
        nextAttemptAt: row.status === 'queued' ? row.next_attempt_at : null,
        lastError: row.last_error,
        acknowledged: row.acknowledged_at !== null,
        redacted: row.redacted_at !== null,
        emailDomain: row.email_domain,
        ...(options.withContent ? { payload: readPayload(row.payload) ?? null } : {}),
      }));
  }

  /**
   * Queues failed messages again (all of them, or those named), due now, with a fresh retry
   * horizon; recipients that already took a message are not sent it again.
   */
  requeue(ids?: string[]): number {
    const at = this.now();
    const only = ids && ids.length > 0 ? `AND id IN (${ids.map(() => '?').join(', ')})` : '';
    return this.db
      .prepare<(string | number)[]>(
        `UPDATE messages SET status = 'queued', attempts = 0, next_attempt_at = ?, created_at = ?,
           acknowledged_at = NULL, updated_at = ? WHERE status = 'failed' AND redacted_at IS NULL ${only}`,
      )
      .run(at, at, at, ...(ids ?? [])).changes;
  }

  /** Marks failed messages as seen by an operator: they no longer hold readiness red. */
  acknowledge(ids?: string[]): number {
    const at = this.now();
    const only = ids && ids.length > 0 ? `AND id IN (${ids.map(() => '?').join(', ')})` : '';
    return this.db
      .prepare<(string | number)[]>(
        `UPDATE messages SET acknowledged_at = ?, updated_at = ? WHERE status = 'failed'
           AND acknowledged_at IS NULL ${only}`,
      )
      .run(at, at, ...(ids ?? [])).changes;
  }

  /** Deletes messages for good: the ones named, or every one in a state older than `beforeMs`. */
  purge(options: { ids?: string[]; status?: MessageStatus; before?: number }): number {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (options.ids && options.ids.length > 0) {
      where.push(`id IN (${options.ids.map(() => '?').join(', ')})`);
      args.push(...options.ids);
    }
    if (options.status) {
      where.push('status = ?');
      args.push(options.status);
    }
    if (options.before !== undefined) {
      where.push('updated_at < ?');
      args.push(options.before);
    }
    if (where.length === 0) throw new Error('purge needs ids, a state or an age');
    return this.db
      .prepare<(string | number)[]>(`DELETE FROM messages WHERE ${where.join(' AND ')}`)
      .run(...args).changes;
  }

  /**
   * Applies the retention policy: spam is deleted once older than `spamMs`; delivered messages,
   * and failed ones an operator has acknowledged, lose their personal data (name, address,
   * subject, text, client and key hashes) once older than `deliveredMs`. What stays of them is
   * the id, the state, the dates and the sender's mail domain, so that "was message X delivered?"
   * can still be answered.
   */
  applyRetention(policy: RetentionPolicy): { redacted: number; deleted: number } {
    const now = this.now();
    return this.db.transaction(() => {
      const deleted = this.db
        .prepare<[number]>("DELETE FROM messages WHERE status = 'spam' AND created_at < ?")
        .run(now - policy.spamMs).changes;
      const redacted = this.db
        .prepare<[number, number, number]>(
          `UPDATE messages SET payload = NULL, idempotency_key = NULL, body_hash = NULL,
             client_hash = NULL, redacted_at = ?
           WHERE redacted_at IS NULL AND updated_at < ?
             AND (status = 'delivered' OR (status = 'failed' AND acknowledged_at IS NOT NULL AND acknowledged_at < ?))`,
        )
        .run(now, now - policy.deliveredMs, now - policy.deliveredMs).changes;
      return { redacted, deleted };
    })();
  }

  /** Whether a write reaches the disk right now (a real committed write, not a permission check). */
  probeWritable(): boolean {
    if (this.closed) return false;
    try {
      this.statements.probe.run(this.now());
      return true;
    } catch {
      return false;
    }
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
