/**
 * What the mail-service does with PostgreSQL through @site/postgres, the package it shares with the
 * site server's control plane: migrations applied once however many instances start together, and
 * from the earlier runners' histories; a LISTEN made again after an outage; a connection dropped
 * mid-transaction failing that transaction, never the process.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { listen, migrate as migrateWith, migrationFiles, transaction } from '@site/postgres';
import { MIGRATIONS_DIR, migrate, openPostgres } from '../postgres';
import { startPerTest, validMessage, waitFor } from './helpers';
import { queryOn, testStore } from './stores';

// A server of this file's own: its tests stop it and start it again.
const store = testStore({ ownServer: true });
const start = startPerTest(store);

/** Runs `sql` on the test database. */
const query = queryOn(store);

describe('a connection the database drops while it is held', () => {
  test('mid-transaction, between two queries: that transaction fails, the process goes on, and the next one commits', async () => {
    const pool = new Pool({ connectionString: store.env.DATABASE_URL, max: 1 });
    pool.on('error', () => undefined);
    try {
      await query('CREATE TABLE held_rows (id integer)');
      const attempt = transaction(pool, async (client) => {
        await client.query('INSERT INTO held_rows VALUES (1)');
        // The server goes away while this transaction holds its connection and runs no query.
        await store.postgres!.pause();
        await client.query('INSERT INTO held_rows VALUES (2)');
        return 'committed';
      });
      await expect(attempt).rejects.toThrow();
      await store.postgres!.resume();
      const next = await transaction(pool, async (client) => {
        await client.query('INSERT INTO held_rows VALUES (3)');
        return (await client.query<{ id: number }>('SELECT id FROM held_rows ORDER BY id')).rows;
      });
      expect(next).toEqual([{ id: 3 }]);
    } finally {
      await pool.end();
    }
  }, 60_000);
});

describe('migrations and notifications (@site/postgres)', () => {
  /** A database of its own, made for one test. */
  const database = async (name: string) => {
    await query(`CREATE DATABASE ${name}`);
    return store.env.DATABASE_URL!.replace(/\/[^/]+$/, `/${name}`);
  };

  test('instances starting together on an empty database apply each migration once', async () => {
    const url = await database('fresh_start');
    const opened = [0, 1, 2, 3].map(() => openPostgres(url, { max: 2 }));
    try {
      await Promise.all(opened.map((pg) => pg.ready));
      const rows = (
        await opened[0]!.pool.query<{ name: string }>(
          'SELECT name FROM mail_migrations ORDER BY name',
        )
      ).rows;
      expect(rows.map((r) => r.name)).toEqual(await migrationFiles(MIGRATIONS_DIR));
      expect(rows).toHaveLength(5);
    } finally {
      await Promise.all(opened.map((pg) => pg.close()));
    }
  });

  test('spam stored before reasons were kept gets the one reason it had: the honeypot', async () => {
    const url = await database('before_reasons');
    const older = mkdtempSync(path.join(os.tmpdir(), 'mail-migrations-'));
    for (const name of ['001_outbox.sql', '002_rate_limits.sql']) {
      copyFileSync(path.join(MIGRATIONS_DIR, name), path.join(older, name));
    }
    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      expect(await migrate(pool, older)).toEqual(['001_outbox.sql', '002_rate_limits.sql']);
      await pool.query(
        `INSERT INTO mail_messages (id, status, payload, created_at, queued_at, next_attempt_at,
           updated_at, lane) VALUES ('s-1', 'spam', '{}', 1, 1, 1, 1, 0),
                                    ('q-1', 'queued', '{}', 1, 1, 1, 1, 1)`,
      );
      expect(await migrate(pool)).toEqual([
        '003_spam_reasons_and_erasures.sql',
        '004_held_digest.sql',
        '005_claim_token.sql',
      ]);
      const { rows } = await pool.query<{ id: string; spam_reasons: string | null }>(
        'SELECT id, spam_reasons FROM mail_messages ORDER BY id',
      );
      expect(rows).toEqual([
        { id: 'q-1', spam_reasons: null },
        { id: 's-1', spam_reasons: '["honeypot field filled"]' },
      ]);
    } finally {
      await pool.end();
      rmSync(older, { recursive: true, force: true });
    }
  });

  test('a database the earlier mail-service runner migrated (versions in mail_schema_migrations) upgrades cleanly, its messages delivered', async () => {
    const url = await database('earlier_runner');
    // What that runner left: files 1 to 3 applied, each recorded by version and name.
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE TABLE mail_schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now())`);
      const files = (await migrationFiles(MIGRATIONS_DIR)).slice(0, 3);
      for (const [i, name] of files.entries()) {
        await client.query(readFileSync(path.join(MIGRATIONS_DIR, name), 'utf8'));
        await client.query('INSERT INTO mail_schema_migrations (version, name) VALUES ($1, $2)', [
          i + 1,
          name,
        ]);
      }
      const payload = JSON.stringify(validMessage());
      await client.query(
        `INSERT INTO mail_messages (id, status, payload, created_at, queued_at, next_attempt_at,
           updated_at, client_hash) VALUES ('0b8c2f1e-0000-4000-8000-000000000001', 'queued', $1,
           1, 1, 1, 1, 'c')`,
        [payload],
      );
    } finally {
      await client.end();
    }
    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      expect(await migrate(pool)).toEqual(['004_held_digest.sql', '005_claim_token.sql']);
      expect(await migrate(pool)).toEqual([]);
    } finally {
      await pool.end();
    }
    const smtp = await start.relay();
    const h = start.harness({ DATABASE_URL: url, SMTP_URL: smtp.url });
    await waitFor(() => smtp.received.length === 1, { what: 'the message stored before' });
    expect(smtp.received[0]!.mail.messageId).toBe(
      '<0b8c2f1e-0000-4000-8000-000000000001@highveld-digital.co.za>',
    );
    // The relay has the message a moment before the outbox records its delivery.
    await waitFor(
      async () =>
        (await h.outbox.statusOf('0b8c2f1e-0000-4000-8000-000000000001'))?.status === 'delivered',
      { what: 'the delivery recorded' },
    );
  });

  test("the site server's history (shell_migrations, by name) is read as it is: only new files apply", async () => {
    const url = await database('control_plane_history');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'shell-migrations-'));
    writeFileSync(path.join(dir, '001_first.sql'), 'CREATE TABLE first_table (id integer);');
    writeFileSync(path.join(dir, '002_second.sql'), 'CREATE TABLE second_table (id integer);');
    const client = new Client({ connectionString: url });
    await client.connect();
    const pool = new Pool({ connectionString: url, max: 2 });
    try {
      // As control-plane/migrate.ts wrote it before the runner was shared.
      await client.query(`CREATE TABLE shell_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      await client.query('CREATE TABLE first_table (id integer)');
      await client.query("INSERT INTO shell_migrations (name) VALUES ('001_first.sql')");
      const options = { dir, table: 'shell_migrations', lock: 7_310_001 };
      expect(await migrateWith(pool, options)).toEqual(['002_second.sql']);
      expect(await migrateWith(pool, options)).toEqual([]);
      const { rows } = await client.query<{ name: string }>(
        'SELECT name FROM shell_migrations ORDER BY name',
      );
      expect(rows.map((r) => r.name)).toEqual(['001_first.sql', '002_second.sql']);
      // A file that fails applies nothing, not even the ones before it.
      writeFileSync(path.join(dir, '003_third.sql'), 'CREATE TABLE third_table (id integer);');
      writeFileSync(path.join(dir, '004_broken.sql'), 'CREATE TABLE broken (;');
      await expect(migrateWith(pool, options)).rejects.toThrow(/syntax error/);
      const third = await client.query("SELECT to_regclass('third_table') IS NULL AS absent");
      expect(third.rows[0]).toEqual({ absent: true });
    } finally {
      await client.end();
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a LISTEN is made again after the database was away, and hears what is announced then', async () => {
    const heard: string[] = [];
    let listening = 0;
    let lost = 0;
    const listener = listen({
      url: store.env.DATABASE_URL!,
      channel: 'mail_test_channel',
      onNotify: (payload) => heard.push(payload),
      onListening: () => void (listening += 1),
      onLost: () => void (lost += 1),
    });
    try {
      await listener.started;
      expect(listening).toBe(1);
      await query("SELECT pg_notify('mail_test_channel', 'before')");
      await waitFor(() => heard.includes('before'), { what: 'the first notification' });
      await store.postgres!.pause();
      await store.postgres!.resume();
      await waitFor(() => listening === 2, { timeoutMs: 20_000, what: 'the LISTEN again' });
      expect(lost).toBeGreaterThan(0);
      await query("SELECT pg_notify('mail_test_channel', 'after')");
      await waitFor(() => heard.includes('after'), { what: 'a notification after the outage' });
    } finally {
      await listener.close();
    }
  }, 60_000);
});
