import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Outbox } from '../outbox/outbox';
import { OutboxQueries } from '../outbox/queries';
import { DeliveryQueue } from '../outbox/queue';
import { openDatabase } from '../outbox/schema';
import { describeError } from '../delivery/failures';
import { openSqlite, pragmaValue, sqliteErrorCode, statement, transaction } from '../outbox/sqlite';
import { tempDir } from './helpers';

/**
 * The outbox's file on Node's built-in SQLite: the settings a durable 202 relies on, and the
 * transaction helper every multi-statement write goes through.
 */

describe('the SQLite outbox file', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('is opened in WAL mode, synchronous=FULL, with a busy timeout, at schema version 5', () => {
    const db = openDatabase(path.join(dir, 'outbox.sqlite'));
    try {
      expect(pragmaValue(db, 'journal_mode')).toBe('wal');
      expect(pragmaValue(db, 'synchronous')).toBe(2); // FULL
      expect(pragmaValue(db, 'busy_timeout')).toBe(5000);
      expect(pragmaValue(db, 'user_version')).toBe(5);
    } finally {
      db.close();
    }
  });

  test('recording a delivery result commits without the fsync, then the connection is FULL again', () => {
    const db = openDatabase(path.join(dir, 'outbox.sqlite'));
    try {
      const o = { db, now: Date.now };
      const queue = new DeliveryQueue(o);
      const at = Date.now();
      statement<[number, number, number, number]>(
        db,
        `INSERT INTO messages (id, status, payload, created_at, queued_at, next_attempt_at, updated_at)
         VALUES ('m-1', 'queued', NULL, ?, ?, ?, ?)`,
      ).run(at, at, at, at);
      queue.record({ id: 'm-1', outcome: 'delivered', attempts: 1, recipients: ['a@example.com'] });
      expect(new OutboxQueries(o).statusOf('m-1')).toEqual({ status: 'delivered', attempts: 1 });
      expect(pragmaValue(db, 'synchronous')).toBe(2);
    } finally {
      db.close();
    }
  });

  test('a read-only connection refuses writes; the log names the error by its SQLite code', () => {
    Outbox.open(dir).close();
    const ro = openSqlite(path.join(dir, 'outbox.sqlite'), { readOnly: true });
    let error: unknown;
    try {
      statement<[number]>(ro, 'INSERT INTO probe (id, at) VALUES (1, ?)').run(1);
    } catch (e) {
      error = e;
    } finally {
      ro.close();
    }
    expect(error).toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 8 });
    // What the delivery worker logs when a result cannot be recorded (SQLITE_FULL on a full disk).
    expect(describeError(error)).toBe('SQLITE_READONLY');
    expect(
      sqliteErrorCode(Object.assign(new Error('disk'), { code: 'ERR_SQLITE_ERROR', errcode: 13 })),
    ).toBe('SQLITE_FULL');
    expect(
      sqliteErrorCode(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })),
    ).toBeUndefined();
  });
});

describe('transaction()', () => {
  let db: DatabaseSync;
  beforeEach(() => {
    db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT');
  });
  afterEach(() => db.close());
  const rows = () => statement<[], { id: number; v: string }>(db, 'SELECT id, v FROM t').all();

  test('commits every statement and returns what the function returns', () => {
    const insert = statement<[string]>(db, 'INSERT INTO t (v) VALUES (?)');
    const changes = transaction(db, () => insert.run('a').changes + insert.run('b').changes);
    expect(changes).toBe(2);
    expect(db.isTransaction).toBe(false);
    // Rows are plain objects, as any other.
    expect(rows()).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
  });

  test('a throw rolls everything back and is passed on', () => {
    const insert = statement<[string]>(db, 'INSERT INTO t (v) VALUES (?)');
    expect(() =>
      transaction(db, () => {
        insert.run('a');
        throw new Error('halfway');
      }),
    ).toThrow('halfway');
    expect(db.isTransaction).toBe(false);
    expect(rows()).toEqual([]);
  });

  test('an SQLite error inside rolls back too', () => {
    expect(() =>
      transaction(db, () => {
        statement<[string]>(db, 'INSERT INTO t (v) VALUES (?)').run('a');
        statement(db, 'INSERT INTO t (id, v) VALUES (1, NULL)').run();
      }),
    ).toThrow(expect.objectContaining({ code: 'ERR_SQLITE_ERROR' }));
    expect(rows()).toEqual([]);
  });

  test('is not nested: a transaction inside another is refused, and the outer one rolls back', () => {
    expect(() =>
      transaction(db, () => {
        statement<[string]>(db, 'INSERT INTO t (v) VALUES (?)').run('a');
        transaction(db, () => undefined);
      }),
    ).toThrow(/already open/);
    expect(db.isTransaction).toBe(false);
    expect(rows()).toEqual([]);
  });

  test('get() gives undefined when there is no row', () => {
    expect(statement<[number]>(db, 'SELECT v FROM t WHERE id = ?').get(7)).toBeUndefined();
  });
});
