/**
 * The outbox as the delivery worker and operators change it: which queued messages are due, in
 * fair order, the result of each delivery attempt, and requeueing or acknowledging failed ones.
 */
import type { ContactMessage } from '@site/contracts/contact';
import { readPayload, type OutboxDb } from './schema';
import { setPragma, statement, type SqliteDb } from './sqlite';

/** A message as the delivery worker reads it back. */
export interface StoredMessage {
  id: string;
  payload: ContactMessage;
  /** When the message was accepted: the e-mail's Date and "Sent:". */
  createdAt: number;
  /** The start of the current retry period: the acceptance, or the latest requeue. */
  queuedAt: number;
  attempts: number;
  /** Recipients the relay has already accepted this message for (a partial earlier attempt). */
  doneRecipients: string[];
  /** The fencing token of this instance's claim (a shared store): checked before the send. */
  claim?: number;
}

/** The result of one attempt, recorded under the claim it was made with (a shared store). */
export type AttemptResult = { claim?: number | undefined } & (
  | { id: string; outcome: 'delivered'; attempts: number; recipients: string[] }
  | {
      id: string;
      outcome: 'retry';
      attempts: number;
      nextAttemptAt: number;
      error: string;
      recipients: string[];
    }
  | { id: string; outcome: 'failed'; attempts: number; error: string; recipients: string[] }
);

/** A due message's row, in either store. */
export interface DueRow {
  id: string;
  payload: string | null;
  created_at: number;
  queued_at: number;
  attempts: number;
  done_rcpts: string | null;
  claim?: number;
}

/** A due row as the delivery worker takes it, or undefined when its payload cannot be read. */
export function storedMessage(row: DueRow): StoredMessage | undefined {
  const payload = readPayload(row.payload);
  if (!payload) return undefined;
  return {
    id: row.id,
    payload,
    createdAt: row.created_at,
    queuedAt: row.queued_at,
    attempts: row.attempts,
    doneRecipients: row.done_rcpts ? (JSON.parse(row.done_rcpts) as string[]) : [],
    ...(row.claim !== undefined ? { claim: row.claim } : {}),
  };
}

function prepare(db: SqliteDb) {
  return {
    // Fair order: a client's first waiting message (lane 1) goes before anyone's second, so one
    // client's flood cannot hold back a message from someone else.
    due: statement<[number, number], DueRow>(
      db,
      `SELECT id, payload, created_at, queued_at, attempts, done_rcpts FROM messages
       WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY lane, created_at LIMIT ?`,
    ),
    nextDue: statement<[], { at: number | null }>(
      db,
      "SELECT MIN(next_attempt_at) AS at FROM messages WHERE status = 'queued'",
    ),
    delivered: statement<[number, string, number, number, string]>(
      db,
      `UPDATE messages SET status = 'delivered', attempts = ?, done_rcpts = ?, last_error = NULL,
         delivered_at = ?, updated_at = ? WHERE id = ?`,
    ),
    retry: statement<[number, number, string, string, number, string]>(
      db,
      `UPDATE messages SET attempts = ?, next_attempt_at = ?, last_error = ?, done_rcpts = ?,
         updated_at = ? WHERE id = ?`,
    ),
    failed: statement<[number, string, string, number, string]>(
      db,
      `UPDATE messages SET status = 'failed', attempts = ?, last_error = ?, done_rcpts = ?,
         acknowledged_at = NULL, updated_at = ? WHERE id = ?`,
    ),
    retryNow: statement<[number, number]>(
      db,
      "UPDATE messages SET next_attempt_at = ? WHERE status = 'queued' AND next_attempt_at > ?",
    ),
  };
}

/** `AND id IN (?, ...)` for the ids given, or nothing when there are none (all of them). */
const onlyIds = (ids: string[] | undefined) =>
  ids && ids.length > 0 ? `AND id IN (${ids.map(() => '?').join(', ')})` : '';

export class DeliveryQueue {
  private readonly statements: ReturnType<typeof prepare>;

  constructor(private readonly o: OutboxDb) {
    this.statements = prepare(o.db);
  }

  /** Queued messages whose next attempt is due, in fair order (see `due` above). */
  due(limit: number): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (const row of this.statements.due.all(this.o.now(), limit)) {
      const message = storedMessage(row);
      if (message) {
        out.push(message);
      } else {
        // An unreadable row would otherwise come back first in every round and block the queue.
        this.statements.failed.run(row.attempts, 'unreadable payload', '[]', this.o.now(), row.id);
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
    const now = this.o.now();
    return this.statements.retryNow.run(now, now).changes;
  }

  /**
   * Records the result of one delivery attempt. Called right after each send, so that a crash
   * can repeat at most the sends that were in progress, never a whole batch.
   */
  record(r: AttemptResult): void {
    const at = this.o.now();
    const done = JSON.stringify(r.recipients);
    // This commit does not wait for the disk. Losing it in a power cut only means the message is
    // sent again (with the same Message-ID); a process crash loses nothing, and the next full
    // commit makes it durable anyway, as the WAL is written in order. The fsync stays with the
    // writes that a 202 stands for, where it matters.
    setPragma(this.o.db, 'synchronous = NORMAL');
    try {
      if (r.outcome === 'delivered') this.statements.delivered.run(r.attempts, done, at, at, r.id);
      else if (r.outcome === 'retry')
        this.statements.retry.run(r.attempts, r.nextAttemptAt, r.error, done, at, r.id);
      else this.statements.failed.run(r.attempts, r.error, done, at, r.id);
    } finally {
      setPragma(this.o.db, 'synchronous = FULL');
    }
  }

  /**
   * Queues failed messages again (all of them, or those named), due now, with a fresh retry
   * period; recipients that already took a message are not sent it again. When it was accepted
   * stays as it was: the e-mail says when the visitor sent it, not when it was requeued.
   */
  requeue(ids?: string[]): number {
    const at = this.o.now();
    return statement<(string | number)[]>(
      this.o.db,
      `UPDATE messages SET status = 'queued', attempts = 0, next_attempt_at = ?, queued_at = ?,
           acknowledged_at = NULL, updated_at = ? WHERE status = 'failed' AND redacted_at IS NULL ${onlyIds(ids)}`,
    ).run(at, at, at, ...(ids ?? [])).changes;
  }

  /**
   * Releases spam messages an operator judged wrongly: they are queued, due now, in their
   * client's lane as if just accepted, and keep their reasons and the time of the release.
   */
  release(ids: string[]): number {
    if (ids.length === 0) return 0;
    const at = this.o.now();
    return statement<(string | number)[]>(
      this.o.db,
      `UPDATE messages SET status = 'queued', attempts = 0, next_attempt_at = ?, queued_at = ?,
           released_at = ?, updated_at = ?,
           lane = (SELECT COUNT(*) + 1 FROM messages q
                   WHERE q.client_hash = messages.client_hash AND q.status = 'queued')
         WHERE status = 'spam' ${onlyIds(ids)}`,
    ).run(at, at, at, at, ...ids).changes;
  }

  /** Marks failed messages as seen by an operator: they no longer hold readiness red. */
  acknowledge(ids?: string[]): number {
    const at = this.o.now();
    return statement<(string | number)[]>(
      this.o.db,
      `UPDATE messages SET acknowledged_at = ?, updated_at = ? WHERE status = 'failed'
           AND acknowledged_at IS NULL ${onlyIds(ids)}`,
    ).run(at, at, ...(ids ?? [])).changes;
  }
}
