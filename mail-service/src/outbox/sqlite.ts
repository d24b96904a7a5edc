/**
 * The outbox's SQLite connection on Node's built-in `node:sqlite`: nothing is compiled at install,
 * and the same code runs on every Node the project pins. The outbox's statements run here (see
 * sql.ts), in transactions that no other statement can join; pragmas; SQLite's error codes.
 */
import {
  DatabaseSync,
  type SQLInputValue,
  type SQLOutputValue,
  type StatementSync,
} from 'node:sqlite';
import type { RunOptions, Sql } from './sql';

export type SqliteDb = DatabaseSync;

/** Opens a connection: read-write (the file is made if missing), or read-only. */
export function openSqlite(file: string, { readOnly = false }: { readOnly?: boolean } = {}) {
  return new DatabaseSync(file, { readOnly });
}

// Rows come back as objects without a prototype: copied into plain ones, so that callers and
// tests see the same objects as any other.
const plain = <R>(row: Record<string, unknown>): R => ({ ...row }) as R;

/**
 * Runs statements on one connection. node:sqlite answers at once, so a transaction's function
 * could be joined by another caller's statement while it awaits: every statement and transaction
 * waits for the transaction in progress to end first. Prepared statements are kept for reuse.
 */
export function sqliteSql(db: DatabaseSync): Sql {
  const prepared = new Map<string, StatementSync>();
  const prepare = (text: string) => {
    let s = prepared.get(text);
    if (!s) {
      // Statements with a list of ids differ in length: the cache stays bounded.
      if (prepared.size >= 200) prepared.clear();
      s = db.prepare(text);
      prepared.set(text, s);
    }
    return s;
  };
  const now = <T>(durable: boolean | undefined, fn: () => T): T => {
    if (durable !== false) return fn();
    // Not waiting for the disk: losing this commit in a power cut only repeats work, and the
    // next full commit makes it durable anyway, as the WAL is written in order.
    setPragma(db, 'synchronous = NORMAL');
    try {
      return fn();
    } finally {
      setPragma(db, 'synchronous = FULL');
    }
  };
  const params = (values: unknown[]) => values as SQLInputValue[];
  const direct: Sql = {
    all: async <R>(text: string, values: unknown[] = [], options?: RunOptions) =>
      now(options?.durable, () => prepare(text).all(...params(values))).map((r) => plain<R>(r)),
    run: async (text, values = [], options) =>
      now(options?.durable, () => Number(prepare(text).run(...params(values)).changes)),
    transaction: () => Promise.reject(new Error('a transaction is already open')),
  };
  // The transaction in progress, if any: nothing else runs on the connection until it ends. The
  // check and the statement run in one synchronous step, so nothing can slip in between.
  let open: Promise<void> | undefined;
  return {
    all: async <R>(text: string, values?: unknown[], options?: RunOptions) => {
      while (open) await open;
      return direct.all<R>(text, values, options);
    },
    run: async (text, values, options) => {
      while (open) await open;
      return direct.run(text, values, options);
    },
    async transaction(fn) {
      while (open) await open;
      let done = () => {};
      open = new Promise((resolve) => (done = resolve));
      try {
        return await transaction(db, () => fn(direct));
      } finally {
        open = undefined;
        done();
      }
    },
  };
}

/**
 * Runs `fn` in one transaction and returns its result: BEGIN IMMEDIATE (the write lock is taken
 * at once, waiting up to the busy timeout, so two processes never deadlock upgrading a read),
 * COMMIT, or ROLLBACK when `fn` or the commit throws.
 */
async function transaction<T>(db: DatabaseSync, fn: () => Promise<T>): Promise<T> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = await fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    // SQLite may already have rolled back by itself (a full disk during the commit, say).
    // A failed ROLLBACK must not hide the error that caused it.
    if (db.isTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch {
        /* the connection reports the first error below */
      }
    }
    throw error;
  }
}

/** The value of a pragma that answers one value (`user_version`, `synchronous`, ...). */
export function pragmaValue(db: DatabaseSync, name: string): SQLOutputValue | undefined {
  const row = db.prepare(`PRAGMA ${name}`).get();
  return row === undefined ? undefined : Object.values(row)[0];
}

/** Sets a pragma (`name = value`); whatever it answers is ignored. */
export function setPragma(db: DatabaseSync, setting: string): void {
  db.exec(`PRAGMA ${setting}`);
}

// SQLite's primary result codes (https://sqlite.org/rescode.html), by number.
const RESULT_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  23: 'SQLITE_AUTH',
  26: 'SQLITE_NOTADB',
};

/**
 * The SQLite result code of an error `node:sqlite` threw, by name (`SQLITE_FULL`, `SQLITE_BUSY`,
 * ...): its errors all carry the code `ERR_SQLITE_ERROR` and the number in `errcode`, which says
 * little in a log. Undefined for any other error.
 */
export function sqliteErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return undefined;
  // Extended codes (SQLITE_IOERR_WRITE, ...) keep the primary code in their low byte.
  return RESULT_CODES[errcode & 0xff] ?? `SQLITE_${errcode}`;
}
