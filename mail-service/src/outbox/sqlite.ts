/**
 * The outbox's SQLite connection on Node's built-in `node:sqlite`: nothing is compiled at install,
 * and the same code runs on every Node the project pins. What the native module it replaces gave
 * and `node:sqlite` does not is here: typed statements, a transaction helper and pragma reads.
 */
import {
  DatabaseSync,
  type SQLInputValue,
  type SQLOutputValue,
  type StatementSync,
} from 'node:sqlite';

export type SqliteDb = DatabaseSync;

/** Opens a connection: read-write (the file is made if missing), or read-only. */
export function openSqlite(file: string, { readOnly = false }: { readOnly?: boolean } = {}) {
  return new DatabaseSync(file, { readOnly });
}

/** A prepared statement with its parameters and row typed; `changes` is always a number. */
export interface Statement<P extends SQLInputValue[], R> {
  run(...params: P): { changes: number };
  /** The first row, or undefined when there is none. */
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

// Rows come back as objects without a prototype: copied into plain ones, so that callers and
// tests see the same objects as any other.
const plain = <R>(row: Record<string, unknown>): R => ({ ...row }) as R;

/** Prepares `sql`; anonymous `?` parameters, bound in order. */
export function statement<P extends SQLInputValue[] = [], R = Record<string, unknown>>(
  db: DatabaseSync,
  sql: string,
): Statement<P, R> {
  const s: StatementSync = db.prepare(sql);
  return {
    run: (...params) => ({ changes: Number(s.run(...params).changes) }),
    get: (...params) => {
      const row = s.get(...params);
      return row === undefined ? undefined : plain<R>(row);
    },
    all: (...params) => s.all(...params).map((row) => plain<R>(row)),
  };
}

/**
 * Runs `fn` in one transaction and returns its result: BEGIN IMMEDIATE (the write lock is taken
 * at once, waiting up to the busy timeout, so two processes never deadlock upgrading a read),
 * COMMIT, or ROLLBACK when `fn` or the commit throws. Transactions do not nest: a call inside
 * another is refused rather than silently joining it.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) throw new Error('a transaction is already open on this connection');
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
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
