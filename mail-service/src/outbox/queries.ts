/**
 * What the outbox holds, as /api/ready, the metrics and the outbox command read it: counts by
 * state, the oldest undelivered message, failures nobody has looked at, and message summaries
 * (personal data only when asked for). Also the write probe behind `outbox_not_writable`.
 */
import type { ContactMessage } from '@site/contracts/contact';
import { readPayload, readReasons, type MessageStatus, type OutboxDb } from './schema';
import { statement, type SqliteDb } from './sqlite';

export type MessageCounts = Record<MessageStatus, number>;

/** One row as operators see it; personal data only when asked for. */
export interface MessageSummary {
  id: string;
  status: MessageStatus;
  /** When it was accepted. */
  createdAt: number;
  /** The start of its current retry period: `createdAt`, or when it was last requeued. */
  queuedAt: number;
  updatedAt: number;
  deliveredAt: number | null;
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  acknowledged: boolean;
  redacted: boolean;
  emailDomain: string | null;
  /** Why it was judged spam (kept after a release); empty when it was not. */
  spamReasons: string[];
  /** When an operator released it from spam to the queue. */
  releasedAt: number | null;
  payload?: ContactMessage | null;
}

export interface ListOptions {
  status?: MessageStatus | undefined;
  ids?: string[] | undefined;
  limit?: number | undefined;
  withContent?: boolean | undefined;
}

export interface SummaryRow {
  id: string;
  status: MessageStatus;
  payload: string | null;
  email_domain: string | null;
  created_at: number;
  queued_at: number;
  updated_at: number;
  delivered_at: number | null;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  acknowledged_at: number | null;
  redacted_at: number | null;
  spam_reasons: string | null;
  released_at: number | null;
}

export const SUMMARY_COLUMNS = `id, status, payload, email_domain, created_at, queued_at, updated_at,
  delivered_at, attempts, next_attempt_at, last_error, acknowledged_at, redacted_at, spam_reasons,
  released_at`;

/** A row as operators see it (see MessageSummary); the content only when asked for. */
export function toSummary(row: SummaryRow, withContent: boolean | undefined): MessageSummary {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at,
    queuedAt: row.queued_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'queued' ? row.next_attempt_at : null,
    lastError: row.last_error,
    acknowledged: row.acknowledged_at !== null,
    redacted: row.redacted_at !== null,
    emailDomain: row.email_domain,
    spamReasons: readReasons(row.spam_reasons),
    releasedAt: row.released_at,
    ...(withContent ? { payload: readPayload(row.payload) ?? null } : {}),
  };
}

function prepare(db: SqliteDb) {
  return {
    counts: statement<[], { status: MessageStatus; n: number }>(
      db,
      'SELECT status, COUNT(*) AS n FROM messages GROUP BY status',
    ),
    oldestQueued: statement<[], { at: number | null }>(
      db,
      "SELECT MIN(queued_at) AS at FROM messages WHERE status = 'queued'",
    ),
    unacknowledged: statement<[], { n: number }>(
      db,
      "SELECT COUNT(*) AS n FROM messages WHERE status = 'failed' AND acknowledged_at IS NULL",
    ),
    probe: statement<[number]>(db, 'INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)'),
    status: statement<[string], { status: MessageStatus; attempts: number }>(
      db,
      'SELECT status, attempts FROM messages WHERE id = ?',
    ),
  };
}

export class OutboxQueries {
  private readonly statements: ReturnType<typeof prepare>;

  constructor(private readonly o: OutboxDb) {
    this.statements = prepare(o.db);
  }

  counts(): MessageCounts {
    const counts: MessageCounts = { queued: 0, delivered: 0, failed: 0, spam: 0 };
    for (const row of this.statements.counts.all()) counts[row.status] = row.n;
    return counts;
  }

  /** Since when the longest-waiting queued message has waited (accepted or requeued), if any. */
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
  list(options: ListOptions): MessageSummary[] {
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
    return statement<(string | number)[], SummaryRow>(this.o.db, sql)
      .all(...args)
      .map((row) => toSummary(row, options.withContent));
  }

  now(): number {
    return this.o.now();
  }

  /** The held messages no digest has listed yet, oldest first, with their content. */
  heldForDigest(limit: number): { messages: MessageSummary[]; total: number } {
    const where = "WHERE status = 'spam' AND digested_at IS NULL";
    const rows = statement<[number], SummaryRow>(
      this.o.db,
      `SELECT ${SUMMARY_COLUMNS} FROM messages ${where} ORDER BY created_at LIMIT ?`,
    ).all(limit);
    const total = statement<[], { n: number }>(
      this.o.db,
      `SELECT COUNT(*) AS n FROM messages ${where}`,
    ).get()!.n;
    return { messages: rows.map((row) => toSummary(row, true)), total };
  }

  /** Whether a write reaches the disk right now (a real committed write, not a permission check). */
  probeWritable(): boolean {
    try {
      this.statements.probe.run(this.o.now());
      return true;
    } catch {
      return false;
    }
  }
}
