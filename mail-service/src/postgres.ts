/**
 * The process's one PostgreSQL pool (DATABASE_URL's) and the ordered migrations in
 * mail-service/migrations/, applied with the runner the site server uses too (@site/postgres).
 */
import path from 'node:path';
import { Pool, types, type CustomTypesConfig } from 'pg';
import { migrate as migrateWith } from '@site/postgres';
import { SERVICE_DIR } from './config';

export const MIGRATIONS_DIR = path.join(SERVICE_DIR, 'migrations');

// The outbox's times are milliseconds since the epoch in bigint columns (and counts are bigint):
// well inside a double. Only this pool reads them as numbers; other users of `pg` keep strings.
const int8AsNumber: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === (types.builtins.INT8 as number)
      ? (value: string) => Number(value)
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

export interface Postgres {
  readonly pool: Pool;
  /** For a connection of its own (LISTEN). Holds credentials: never log. */
  readonly url: string;
  /** Resolves once the schema is current; rejects (naming the cause) when it cannot be. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Opens the pool and starts the migrations; every query of the outbox waits for them. */
export function openPostgres(
  url: string,
  {
    max = 10,
    afterMigrations,
  }: {
    max?: number;
    /** Runs once the schema is current, before `ready` resolves (a move of data into it). */
    afterMigrations?: ((pool: Pool) => Promise<void>) | undefined;
  } = {},
): Postgres {
  const pool = new Pool({
    connectionString: url,
    max,
    types: int8AsNumber,
    connectionTimeoutMillis: 5000,
    application_name: 'mail-service',
  });
  // An idle client whose server went away must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  const ready = migrate(pool).then(() => afterMigrations?.(pool));
  ready.catch(() => undefined);
  let closed: Promise<void> | undefined;
  return {
    pool,
    url,
    ready,
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

/**
 * Applies the migrations not applied yet (see @site/postgres), recorded by name in
 * `mail_migrations`. Until that runner, versions were recorded in `mail_schema_migrations`: a
 * database migrated then counts what it lists as applied. Resolves to the names applied now.
 */
export function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  return migrateWith(pool, {
    dir,
    table: 'mail_migrations',
    lock: 'mail-service migrations',
    previous: 'mail_schema_migrations',
  });
}

export { isUnreachable } from '@site/postgres';
