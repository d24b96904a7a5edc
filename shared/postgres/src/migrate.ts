/**
 * The one migration runner of every package that keeps tables in PostgreSQL (the site server's
 * control plane, the mail-service): its schema changes are plain SQL files, `NNN_name.sql` in a
 * folder of its own, applied in the order of their numbers, each recorded by name in a history
 * table of its own. All pending files run in one transaction under a transaction-level advisory
 * lock: processes that start together wait on the lock and find the files applied; a failing file
 * applies none of them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { transaction } from './transaction';

export interface MigrationOptions {
  /** The folder of `NNN_name.sql` files. */
  dir: string;
  /** The history table: one row per file applied, by name (made on first use). */
  table: string;
  /** The advisory lock the package's migrations run under: a number, or a name PostgreSQL hashes. */
  lock: number | string;
  /**
   * A history the package kept before, in another table with a `name` column: the files named
   * there count as applied (copied into `table`), so a database migrated by the earlier runner
   * upgrades cleanly. It is left in place for a process of the earlier version that still runs.
   */
  previous?: string;
}

const FILE = /^(\d+)_[\w-]+\.sql$/;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The migration files of `dir`, in the order they apply (by number, then name). */
export async function migrationFiles(dir: string): Promise<string[]> {
  const number = (name: string) => Number(FILE.exec(name)?.[1]);
  return (await fs.readdir(dir))
    .filter((name) => FILE.test(name))
    .sort((a, b) => number(a) - number(b) || a.localeCompare(b));
}

/** Applies the files this database has not had yet; resolves to the names applied now. */
export async function migrate(pool: Pool, options: MigrationOptions): Promise<string[]> {
  const { dir, table, lock, previous } = options;
  for (const name of [table, previous ?? table]) {
    if (!IDENTIFIER.test(name)) throw new Error(`"${name}" is not a plain table name`);
  }
  const files = await migrationFiles(dir);
  return transaction(pool, async (client) => {
    await client.query(
      typeof lock === 'number'
        ? 'SELECT pg_advisory_xact_lock($1::bigint)'
        : 'SELECT pg_advisory_xact_lock(hashtext($1))',
      [lock],
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    if (previous) {
      const { rows } = await client.query<{ found: boolean }>(
        'SELECT to_regclass($1) IS NOT NULL AS found',
        [previous],
      );
      if (rows[0]?.found) {
        await client.query(
          `INSERT INTO ${table} (name, applied_at) SELECT name, applied_at FROM ${previous}
           ON CONFLICT (name) DO NOTHING`,
        );
      }
    }
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${table}`);
    const done = new Set(rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await client.query(await fs.readFile(path.join(dir, file), 'utf8'));
      await client.query(`INSERT INTO ${table} (name) VALUES ($1)`, [file]);
      applied.push(file);
    }
    return applied;
  });
}
