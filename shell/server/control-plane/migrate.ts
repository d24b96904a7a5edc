import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';

/** The site server's schema changes: `NNN_name.sql`, applied in the order of their names. */
const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

/**
 * Any fixed number: it names the lock under which this package's migrations run, so replicas that
 * start together wait for one another instead of applying a migration twice.
 */
const MIGRATION_LOCK = 7_310_001;

/**
 * Applies the migrations this database has not had yet, each recorded in `shell_migrations`, all in
 * one transaction under a transaction-level advisory lock: a replica that starts while another
 * migrates waits, then finds them applied; a failure applies none of them. Resolves to the names
 * applied now.
 */
export async function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await fs.readdir(dir)).filter((f) => /^\d+_[\w-]+\.sql$/.test(f)).sort();
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS shell_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ name: string }>('SELECT name FROM shell_migrations');
    const done = new Set(rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await client.query(await fs.readFile(path.join(dir, file), 'utf8'));
      await client.query('INSERT INTO shell_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A connection that failed mid-transaction is not handed out again.
    client.release(failed);
  }
}
