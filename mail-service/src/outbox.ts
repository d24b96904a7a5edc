import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { z } from 'zod';
import type { ContactMessage } from '@site/shared/contact';

export type MessageStatus = 'queued' | 'delivered' | 'failed' | 'spam';

/** A message as the delivery worker reads it back. */
export interface StoredMessage {
  id: string;
  payload: ContactMessage;
  createdAt: number;
  attempts: number;
}

export interface NewMessage {
  payload: ContactMessage;
  spam: boolean;
  idempotencyKey?: string | undefined;
}

export interface EnqueueResult {
  messageId: string;
  /** true when the idempotency key was seen before: nothing new was stored. */
  replay: boolean;
}

export type AttemptResult =
  | { id: string; outcome: 'delivered'; attempts: number }
  | { id: string; outcome: 'retry'; attempts: number; nextAttemptAt: number; error: string }
  | { id: string; outcome: 'failed'; attempts: number; error: string };

export type MessageCounts = Record<MessageStatus, number>;

// What was stored is read back leniently: a message accepted under older rules is still delivered.
const storedPayload = z.object({
  user: z.object({ name: z.string(), email: z.string() }),
  message: z.object({ subject: z.string(), body: z.string() }),
  website: z.string().optional(),
});

function readPayload(text: string): ContactMessage | undefined {
  try {
    const parsed = storedPayload.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS messages (
    id              TEXT PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
    payload         TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    updated_at      INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS messages_due ON messages (status, next_attempt_at);
  CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
`;

interface PendingInsert {
  id: string;
  message: NewMessage;
  resolve: (result: EnqueueResult) => void;
  reject: (error: unknown) => void;
}

interface Row {
  id: string;
  payload: string;
  created_at: number;
  attempts: number;
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare<[string, string | null, string, string, number, number, number]>(
      `INSERT INTO messages (id, idempotency_key, status, payload, created_at, next_attempt_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`,
    ),
    byKey: db.prepare<[string], { id: string }>(
      'SELECT id FROM messages WHERE idempotency_key = ?',
    ),
    due: db.prepare<[number, number], Row>(
      `SELECT id, payload, created_at, attempts FROM messages
       WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at LIMIT ?`,
    ),
    nextDue: db.prepare<[], { at: number | null }>(
      "SELECT MIN(next_attempt_at) AS at FROM messages WHERE status = 'queued'",
    ),
    delivered: db.prepare<[number, number, string]>(
      "UPDATE messages SET status = 'delivered', attempts = ?, last_error = NULL, updated_at = ? WHERE id = ?",
    ),
    retry: db.prepare<[number, number, string, number, string]>(
      'UPDATE messages SET attempts = ?, next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?',
    ),
    failed: db.prepare<[number, string, number, string]>(
      "UPDATE messages SET status = 'failed', attempts = ?, last_error = ?, updated_at = ? WHERE id = ?",
    ),
    counts: db.prepare<[], { status: MessageStatus; n: number }>(
      'SELECT status, COUNT(*) AS n FROM messages GROUP BY status',
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

/**
 * The outbox: every accepted message, durably, in SQLite (WAL, synchronous=FULL, so a commit has
 * reached the disk when it returns). Delivered messages stay as the archive; nothing is deleted.
 *
 * Inserts are group-committed: the messages that arrive in one turn of the event loop are written
 * in one transaction, and each request is answered only after that transaction has committed. One
 * fsync then covers many messages, which is what keeps the durable endpoint fast under load.
 */
export class Outbox {
  private pending: PendingInsert[] = [];
  private readonly pendingKeys = new Map<string, Promise<EnqueueResult>>();
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
    this.db.exec(SCHEMA);
    this.statements = prepare(this.db);
  }

  /** Opens (creating if needed) the outbox in `dir`. */
  static open(dir: string, now: () => number = Date.now): Outbox {
    mkdirSync(dir, { recursive: true });
    return new Outbox(path.join(dir, 'outbox.sqlite'), now);
  }

  /**
   * Stores a message; resolves once it is committed to disk. A known idempotency key resolves with
   * the message stored under it, and stores nothing.
   */
  enqueue(message: NewMessage): Promise<EnqueueResult> {
    if (this.closed) return Promise.reject(new Error('the outbox is closed'));
    const key = message.idempotencyKey;
    const replay = key === undefined ? undefined : this.replayOf(key);
    if (replay) return replay;
    const promise = new Promise<EnqueueResult>((resolve, reject) => {
      this.pending.push({ id: randomUUID(), message, resolve, reject });
    });
    if (key !== undefined) this.pendingKeys.set(key, promise);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // setImmediate runs after the poll phase, so every request read in this turn joins the batch.
      setImmediate(() => this.flush());
    }
    return promise;
  }

  /** The message already stored (or being stored) under an idempotency key, if there is one. */
  replayOf(key: string): Promise<EnqueueResult> | undefined {
    if (this.closed) return undefined;
    const inFlight = this.pendingKeys.get(key);
    if (inFlight) return inFlight.then((r) => ({ messageId: r.messageId, replay: true }));
    const existing = this.statements.byKey.get(key);
    return existing ? Promise.resolve({ messageId: existing.id, replay: true }) : undefined;
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
          const key = p.message.idempotencyKey ?? null;
          const info = this.statements.insert.run(
            p.id,
            key,
            p.message.spam ? 'spam' : 'queued',
            JSON.stringify(p.message.payload),
            at,
            at,
            at,
          );
          // Only another process sharing this file can have taken the key in the meantime.
          const existing =
            info.changes === 0 && key !== null ? this.statements.byKey.get(key) : undefined;
          results.push(
            existing
              ? { messageId: existing.id, replay: true }
              : { messageId: p.id, replay: false },
          );
        }
      })();
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    } finally {
      for (const p of batch) {
        if (p.message.idempotencyKey !== undefined)
          this.pendingKeys.delete(p.message.idempotencyKey);
      }
    }
    batch.forEach((p, i) => p.resolve(results[i] as EnqueueResult));
  }

  /** Queued messages whose next attempt is due, oldest first. */
  due(limit: number): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (const row of this.statements.due.all(this.now(), limit)) {
      const payload = readPayload(row.payload);
      if (payload) {
        out.push({ id: row.id, payload, createdAt: row.created_at, attempts: row.attempts });
      } else {
        // An unreadable row would otherwise come back first in every round and block the queue.
        this.statements.failed.run(row.attempts, 'unreadable payload', this.now(), row.id);
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

  /** Records the results of delivery attempts, all in one transaction. */
  record(results: AttemptResult[]): void {
    if (results.length === 0) return;
    const at = this.now();
    // This commit does not wait for the disk. Losing it in a power cut only means those messages
    // are sent again (with the same Message-ID), and the next stored message's full commit makes
    // it durable anyway, as the WAL is written in order. The fsync stays with the writes that a
    // 202 stands for, where it matters.
    this.db.pragma('synchronous = NORMAL');
    try {
      this.db.transaction(() => {
        for (const r of results) {
          if (r.outcome === 'delivered') this.statements.delivered.run(r.attempts, at, r.id);
          else if (r.outcome === 'retry')
            this.statements.retry.run(r.attempts, r.nextAttemptAt, r.error, at, r.id);
          else this.statements.failed.run(r.attempts, r.error, at, r.id);
        }
      })();
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  counts(): MessageCounts {
    const counts: MessageCounts = { queued: 0, delivered: 0, failed: 0, spam: 0 };
    for (const row of this.statements.counts.all()) counts[row.status] = row.n;
    return counts;
  }

  /** The status of one message, for operators and tests. */
  statusOf(id: string): { status: MessageStatus; attempts: number } | undefined {
    return this.statements.status.get(id);
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
    this.flush();
    this.closed = true;
    this.db.close();
  }
}
