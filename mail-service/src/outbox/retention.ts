/**
 * How long the outbox keeps what: the retention policy, an operator's purge, and a person's right
 * to see and to erase every message sent from their address, with the audit of erasures served.
 */
import { normalizeAddress } from './address';
import { idsOrAll, type OutboxContext } from './context';
import { SUMMARY_COLUMNS, toSummary, type MessageSummary, type SummaryRow } from './queries';
import type { Sql } from './sql';
import { readPayload, type MessageStatus } from './stored';

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
  const ids = idsOrAll(options.ids);
  const status = options.status ?? null;
  const before = options.before ?? null;
  if (ids === null && status === null && before === null) {
    throw new Error('purge needs ids, a state or an age');
  }
  return db.sql().run(
    `DELETE FROM mail_messages
     WHERE ($1::text[] IS NULL OR id = ANY($1)) AND ($2::text IS NULL OR status = $2)
       AND ($3::bigint IS NULL OR updated_at < $3)`,
    [ids, status, before],
  );
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
       WHERE status = 'spam' AND created_at < $1 AND digested_at IS NOT NULL`,
      [now - policy.spamMs],
    ),
    redacted: await tx.run(
      `UPDATE mail_messages SET payload = NULL, idempotency_key = NULL, body_hash = NULL,
         client_hash = NULL, redacted_at = $1
       WHERE redacted_at IS NULL AND updated_at < $2
         AND (status = 'delivered'
           OR (status = 'failed' AND acknowledged_at IS NOT NULL AND acknowledged_at < $2))`,
      [now, old],
    ),
  }));
}

/**
 * The rows from an address, compared as addresses (any case, an internationalised domain in
 * either form, see address.ts) in JavaScript: the address is inside the payload's JSON, and its
 * domain's two forms are the same only once turned into ASCII.
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
 * count) in one transaction, then vacuums the table, so that the freed space is reused (the WAL,
 * archives and backups: the README's "Personal data"); returns the ids.
 */
export async function erase(db: OutboxContext, request: EraseRequest): Promise<string[]> {
  const ids = await db.sql().transaction(async (tx) => {
    const found = (await matching(tx, request.address)).map((row) => row.id);
    if (found.length > 0) {
      await tx.run('DELETE FROM mail_messages WHERE id = ANY($1)', [found]);
    }
    await tx.run(
      'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES ($1, $2, $3, $4)',
      [db.now(), request.addressHmac, found.length, request.files],
    );
    return found;
  });
  await db.sql().run('VACUUM mail_messages');
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
