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
