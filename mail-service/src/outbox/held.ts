/**
 * Messages held as spam: released to the queue when judged wrongly, and listed for sales in a
 * digest that one process at a time claims, sends, and marks as sent.
 */
import { someIds, type OutboxContext } from './context';
import { SUMMARY_COLUMNS, toSummary, type MessageSummary, type SummaryRow } from './queries';
import { announceQueued } from './sql';

/**
 * Releases held messages judged wrongly (the digest's link, or an operator): queued, due now, in
 * their client's lane as if just accepted, with their reasons kept and the release time.
 */
export async function release(db: OutboxContext, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const at = db.now();
  return db.sql().transaction(async (tx) => {
    const n = await tx.run(
      `UPDATE mail_messages SET status = 'queued', attempts = 0, next_attempt_at = $1,
         queued_at = $1, released_at = $1, updated_at = $1,
         lane = (SELECT COUNT(*) + 1 FROM mail_messages q
                 WHERE q.client_hash = mail_messages.client_hash AND q.status = 'queued')
       WHERE status = 'spam' AND id = ANY($2)`,
      [at, ids],
    );
    if (n > 0) await announceQueued(tx);
    return n;
  });
}

/**
 * Claims the sending of the digest of held messages for `leaseMs`: true when one is due (none
 * sent in the last `everyMs`), some held message has not been in one yet, and no other process
 * is sending one now.
 */
export async function claimDigest(db: OutboxContext, everyMs: number, leaseMs: number) {
  const now = db.now();
  const claimed = await db.sql().run(
    `UPDATE mail_digest SET claimed_until = $1
     WHERE id = 1 AND (claimed_until IS NULL OR claimed_until <= $2)
       AND (last_sent_at IS NULL OR last_sent_at <= $3)
       AND EXISTS (SELECT 1 FROM mail_messages WHERE status = 'spam' AND digested_at IS NULL)`,
    [now + leaseMs, now, now - everyMs],
  );
  return claimed > 0;
}

/** The held messages no digest has listed yet, oldest first, at most `limit`, and how many. */
export async function heldForDigest(
  db: OutboxContext,
  limit: number,
): Promise<{ messages: MessageSummary[]; total: number }> {
  const where = "WHERE status = 'spam' AND digested_at IS NULL";
  const rows = await db
    .sql()
    .all<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM mail_messages ${where} ORDER BY created_at LIMIT $1`,
      [limit],
    );
  const [count] = await db
    .sql()
    .all<{ n: number }>(`SELECT COUNT(*) AS n FROM mail_messages ${where}`);
  return { messages: rows.map((row) => toSummary(row, true)), total: Number(count?.n ?? 0) };
}

/** The digest listing `ids` was sent (or, with undefined, could not be): gives up the claim. */
export async function digestDone(db: OutboxContext, ids: string[] | undefined): Promise<void> {
  const now = db.now();
  await db.sql().transaction(async (tx) => {
    if (someIds(ids)) {
      await tx.run('UPDATE mail_messages SET digested_at = $1 WHERE id = ANY($2)', [now, ids]);
    }
    await tx.run(
      `UPDATE mail_digest SET claimed_until = NULL,
         last_sent_at = CASE WHEN $1 THEN $2::bigint ELSE last_sent_at END WHERE id = 1`,
      [ids !== undefined, now],
    );
  });
}
