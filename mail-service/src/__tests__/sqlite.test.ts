import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Outbox } from '../outbox/outbox';
import { sqliteStore } from '../outbox/schema';
import { describeError } from '../delivery/failures';
import { openSqlite, pragmaValue, sqliteErrorCode, sqliteSql } from '../outbox/sqlite';
import { tempDir } from './helpers';

/**
 * The outbox's file on Node's built-in SQLite: the settings a durable 202 relies on, and the
 * transactions every multi-statement write goes through.
 */

describe('the SQLite outbox file', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('is opened in WAL mode, synchronous=FULL, with a busy timeout, at schema version 6', async () => {
    const store = sqliteStore(dir);
    try {
      expect(pragmaValue(store.db, 'journal_mode')).toBe('wal');
      expect(pragmaValue(store.db, 'synchronous')).toBe(2); // FULL
      expect(pragmaValue(store.db, 'busy_timeout')).toBe(5000);
      expect(pragmaValue(store.db, 'secure_delete')).toBe(1);
      expect(pragmaValue(store.db, 'user_version')).toBe(6);
    } finally {
      await store.close();
    }
  });

  test('recording a delivery result commits without the fsync, then the connection is FULL again', async () => {
    const store = sqliteStore(dir);
    const outbox = new Outbox(store);
    try {
      const at = Date.now();
      await store.sql.run(
        `INSERT INTO mail_messages (id, status, payload, created_at, queued_at, next_attempt_at, updated_at)
         VALUES ('m-1', 'queued', NULL, ?, ?, ?, ?)`,
        [at, at, at, at],
      );
      await outbox.record({
        id: 'm-1',
        outcome: 'delivered',
        attempts: 1,
        recipients: ['a@example.com'],
      });
      expect(await outbox.statusOf('m-1')).toEqual({ status: 'delivered', attempts: 1 });
      expect(pragmaValue(store.db, 'synchronous')).toBe(2);
    } finally {
      await outbox.close();
    }
  });

  test('a read-only connection refuses writes; the log names the error by its SQLite code', async () => {
    await Outbox.open(dir).close();
    const ro = openSqlite(path.join(dir, 'outbox.sqlite'), { readOnly: true });
    let error: unknown;
    try {
      ro.prepare('INSERT INTO mail_probe (id, at) VALUES (1, ?)').run(1);
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

describe('transactions on node:sqlite', () => {
  let db: DatabaseSync;
  beforeEach(() => {
    db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT');
  });
  afterEach(() => db.close());
  const rows = () => sqliteSql(db).all<{ id: number; v: string }>('SELECT id, v FROM t');
  const insert = 'INSERT INTO t (v) VALUES (?)';

  test('commits every statement and returns what the function returns', async () => {
    const sql = sqliteSql(db);
    const changes = await sql.transaction(
      async (tx) => (await tx.run(insert, ['a'])) + (await tx.run(insert, ['b'])),
    );
    expect(changes).toBe(2);
    expect(db.isTransaction).toBe(false);
    // Rows are plain objects, as any other.
    expect(await rows()).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
  });

  test('a throw rolls everything back and is passed on', async () => {
    await expect(
      sqliteSql(db).transaction(async (tx) => {
        await tx.run(insert, ['a']);
        throw new Error('halfway');
      }),
    ).rejects.toThrow('halfway');
    expect(db.isTransaction).toBe(false);
    expect(await rows()).toEqual([]);
  });

  test('an SQLite error inside rolls back too', async () => {
    await expect(
      sqliteSql(db).transaction(async (tx) => {
        await tx.run(insert, ['a']);
        await tx.run('INSERT INTO t (id, v) VALUES (1, NULL)');
      }),
    ).rejects.toThrow(expect.objectContaining({ code: 'ERR_SQLITE_ERROR' }));
    expect(await rows()).toEqual([]);
  });

  test('is not nested: a transaction inside another is refused, and the outer one rolls back', async () => {
    await expect(
      sqliteSql(db).transaction(async (tx) => {
        await tx.run(insert, ['a']);
        await tx.transaction(async () => undefined);
      }),
    ).rejects.toThrow(/already open/);
    expect(db.isTransaction).toBe(false);
    expect(await rows()).toEqual([]);
  });

  test('a statement from elsewhere waits for the transaction in progress instead of joining it', async () => {
    const sql = sqliteSql(db);
    let release = () => {};
    const paused = new Promise<void>((resolve) => (release = resolve));
    const failing = sql.transaction(async (tx) => {
      await tx.run(insert, ['inside']);
      await paused;
      throw new Error('rolled back');
    });
    const outside = sql.run(insert, ['outside']);
    release();
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect((await rows()).map((r) => r.v)).toEqual(['outside']);
  });
});
