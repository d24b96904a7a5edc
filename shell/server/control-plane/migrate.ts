import path from 'node:path';
import type { Pool } from 'pg';
import { migrate as migrateWith } from '@site/postgres';

/** The site server's schema changes: `NNN_name.sql`, applied in order (see @site/postgres). */
const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

/**
 * Any fixed number: it names the lock under which this package's migrations run, so replicas that
 * start together wait for one another instead of applying a migration twice.
 */
const MIGRATION_LOCK = 7_310_001;

/**
 * Applies the migrations this database has not had yet, each recorded in `shell_migrations`, with
 * the runner every package shares; resolves to the names applied now.
 */
export function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  return migrateWith(pool, { dir, table: 'shell_migrations', lock: MIGRATION_LOCK });
}
