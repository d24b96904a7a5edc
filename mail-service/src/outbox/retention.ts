/**
 * How long the outbox keeps what: the retention policy, an operator's purge, and a person's right
 * to see and to erase every message sent from their address, with the audit of erasures served.
 */
import { normalizeAddress } from './address';
import { list, someIds, type OutboxContext } from './context';
import { SUMMARY_COLUMNS, toSummary, type MessageSummary, type SummaryRow } from './queries';
import { readPayload, type MessageStatus } from './schema';
import type { Sql } from './sql';

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

/** Deletes messages for good: the ones named, or every one in a state older than `before`. */
export async function purge(db: OutboxContext, options: PurgeOptions): Promise<number> {
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
  return db.sql().run(`DELETE FROM mail_messages WHERE ${where.join(' AND ')}`, args);
}

/**
 * Applies the retention policy: a held message is deleted once older than `spamMs` and listed
 * in a digest; delivered messages, and failed ones an operator has acknowledged, lose their
 * personal data (name, address, subject, text, client and key hashes) once older than
 * `deliveredMs`. What stays of them is the id, the state, the dates and the sender's mail
 * domain, so that "was message X delivered?" can still be answered.
 */
export async function applyRetention(
  db: OutboxContext,
  policy: RetentionPolicy,
): Promise<{ redacted: number; deleted: number }> {
  const now = db.now();
  const old = now - policy.deliveredMs;
  return db.sql().transaction(async (tx) => ({
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
async function matching(sql: Sql, address: string): Promise<SummaryRow[]> {
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
export async function messagesFrom(db: OutboxContext, address: string): Promise<MessageSummary[]> {
  return (await matching(db.sql(), address)).map((row) => toSummary(row, true));
}

/**
 * Deletes every message from the address and records the erasure (an HMAC of the address, the
 * count) in one transaction, then scrubs the store's files (see Store.scrub); returns the ids.
 */
export async function erase(db: OutboxContext, request: EraseRequest): Promise<string[]> {
  const ids = await db.sql().transaction(async (tx) => {
    const found = (await matching(tx, request.address)).map((row) => row.id);
    if (found.length > 0) {
      await tx.run(`DELETE FROM mail_messages WHERE id IN ${list(found)}`, found);
    }
    await tx.run(
      'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES (?, ?, ?, ?)',
      [db.now(), request.addressHmac, found.length, request.files],
    );
    return found;
  });
  await db.store.scrub();
  return ids;
}

/** The erasures served, newest first. */
export async function erasures(db: OutboxContext): Promise<Erasure[]> {
  const rows = await db.sql().all<Record<'at' | 'messages' | 'files', number>>(
    `SELECT at, address_hmac AS "addressHmac", messages, files FROM mail_erasures
     ORDER BY at DESC, id DESC`,
  );
  return rows as unknown as Erasure[];
}
