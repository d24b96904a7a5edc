/**
 * A person's requests about their data in the SQLite outbox: every stored message from an
 * address (export), and their erasure so that neither the address nor the text can be found in
 * any file of DATA_DIR afterwards: deleted with secure_delete (freed pages are zeroed), the WAL
 * checkpointed and truncated, the file rebuilt with VACUUM, and the WAL truncated again.
 */
import { normalizeAddress } from './address';
import { SUMMARY_COLUMNS, toSummary, type MessageSummary, type SummaryRow } from './queries';
import type { OutboxDb } from './schema';
import { setPragma, statement, transaction } from './sqlite';

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

const CHECKPOINT_TRIES = 50;

export class PersonalData {
  constructor(private readonly o: OutboxDb) {
    // The comparison in JavaScript: SQLite's lower() knows only ASCII letters.
    o.db.function('mail_address', { deterministic: true }, (email: unknown) =>
      typeof email === 'string' ? normalizeAddress(email) : null,
    );
  }

  private matching(address: string): SummaryRow[] {
    return statement<[string], SummaryRow>(
      this.o.db,
      `SELECT ${SUMMARY_COLUMNS} FROM messages
         WHERE payload IS NOT NULL AND json_valid(payload)
           AND mail_address(json_extract(payload, '$.user.email')) = ?
         ORDER BY created_at`,
    ).all(normalizeAddress(address));
  }

  /** Every stored message from the address, oldest first, with its content. */
  ofAddress(address: string): MessageSummary[] {
    return this.matching(address).map((row) => toSummary(row, true));
  }

  /** Erases every message from the address and records the erasure; returns the ids erased. */
  erase(request: EraseRequest): string[] {
    const { db } = this.o;
    // Freed pages are overwritten with zeros rather than left in the file's free list.
    setPragma(db, 'secure_delete = ON');
    const ids = transaction(db, () => {
      const found = this.matching(request.address).map((row) => row.id);
      const remove = statement<[string]>(db, 'DELETE FROM messages WHERE id = ?');
      for (const id of found) remove.run(id);
      statement<[number, string, number, number]>(
        db,
        'INSERT INTO erasures (at, address_hmac, messages, files) VALUES (?, ?, ?, ?)',
      ).run(this.o.now(), request.addressHmac, found.length, request.files);
      return found;
    });
    // The deleted rows are still in the WAL until it is copied back and truncated, and in pages
    // of the file that VACUUM rewrites; VACUUM itself goes through the WAL, hence twice.
    this.truncateWal();
    db.exec('VACUUM');
    this.truncateWal();
    return ids;
  }

  /** The erasures served, newest first. */
  erasures(): Erasure[] {
    return statement<[], { at: number; address_hmac: string; messages: number; files: number }>(
      this.o.db,
      'SELECT at, address_hmac, messages, files FROM erasures ORDER BY at DESC, id DESC',
    )
      .all()
      .map((r) => ({
        at: r.at,
        addressHmac: r.address_hmac,
        messages: r.messages,
        files: r.files,
      }));
  }

  /**
   * Copies the WAL into the file and truncates it to nothing. The running service's connection
   * can hold it up for a moment (a read in progress): tried again until it completes.
   */
  private truncateWal(): void {
    for (let i = 0; i < CHECKPOINT_TRIES; i++) {
      const result = statement<[], { busy: number }>(
        this.o.db,
        'PRAGMA wal_checkpoint(TRUNCATE)',
      ).get();
      if (result?.busy === 0) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
    throw new Error(
      'the WAL could not be truncated (the outbox stayed busy for 5 s): run the erase again',
    );
  }
}
