/**
 * How long the outbox keeps what: the retention policy (personal data removed from delivered and
 * acknowledged messages, spam deleted) and the operator's purge.
 */
import type { MessageStatus, OutboxDb } from './schema';
import { statement, transaction } from './sqlite';

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

export class Retention {
  constructor(private readonly o: OutboxDb) {}

  /** Deletes messages for good: the ones named, or every one in a state older than `beforeMs`. */
  purge(options: PurgeOptions): number {
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
    return statement<(string | number)[]>(
      this.o.db,
      `DELETE FROM messages WHERE ${where.join(' AND ')}`,
    ).run(...args).changes;
  }

  /**
   * Applies the retention policy: spam is deleted once older than `spamMs`; delivered messages,
   * and failed ones an operator has acknowledged, lose their personal data (name, address,
   * subject, text, client and key hashes) once older than `deliveredMs`. What stays of them is
   * the id, the state, the dates and the sender's mail domain, so that "was message X delivered?"
   * can still be answered.
   */
  apply(policy: RetentionPolicy): { redacted: number; deleted: number } {
    const now = this.o.now();
    return transaction(this.o.db, () => {
      const deleted = statement<[number]>(
        this.o.db,
        // A held message is deleted only once a digest has shown it to sales.
        "DELETE FROM messages WHERE status = 'spam' AND created_at < ? AND digested_at IS NOT NULL",
      ).run(now - policy.spamMs).changes;
      const redacted = statement<[number, number, number]>(
        this.o.db,
        `UPDATE messages SET payload = NULL, idempotency_key = NULL, body_hash = NULL,
             client_hash = NULL, redacted_at = ?
           WHERE redacted_at IS NULL AND updated_at < ?
             AND (status = 'delivered' OR (status = 'failed' AND acknowledged_at IS NOT NULL AND acknowledged_at < ?))`,
      ).run(now, now - policy.deliveredMs, now - policy.deliveredMs).changes;
      return { redacted, deleted };
    });
  }
}
