/**
 * The process's one PostgreSQL pool (when DATABASE_URL is set) and the ordered migrations in
 * mail-service/migrations/, applied once however many instances start together.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseError, Pool, types, type CustomTypesConfig, type PoolClient } from 'pg';
import { SERVICE_DIR } from './config';

export const MIGRATIONS_DIR = path.join(SERVICE_DIR, 'migrations');

/** `001_outbox.sql`: the number orders the files and is the version recorded once applied. */
const MIGRATION_FILE = /^(\d+)_[a-z0-9_-]+\.sql$/;

// The outbox's times are milliseconds since the epoch in bigint columns: well inside a double.
// Only this pool reads them as numbers; other users of `pg` keep the default (strings).
const int8AsNumber: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === (types.builtins.INT8 as number)
      ? (value: string) => Number(value)
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

export interface Postgres {
  readonly pool: Pool;
  /** Resolves once the schema is current; rejects (naming the cause) when it cannot be. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Opens the pool and starts the migrations; every query of the outbox waits for them. */
export function openPostgres(url: string, { max = 10 }: { max?: number } = {}): Postgres {
  const pool = new Pool({
    connectionString: url,
    max,
    types: int8AsNumber,
    connectionTimeoutMillis: 5000,
    application_name: 'mail-service',
  });
  // An idle client whose server went away must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  const ready = migrate(pool).then(() => undefined);
  ready.catch(() => undefined);
  let closed: Promise<void> | undefined;
  return {
    pool,
    ready,
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

/** The migration files in order, each with its version. */
export function migrationFiles(dir = MIGRATIONS_DIR): { version: number; name: string }[] {
  return readdirSync(dir)
    .map((name) => ({ name, m: MIGRATION_FILE.exec(name) }))
    .filter((f): f is { name: string; m: RegExpExecArray } => f.m !== null)
    .map((f) => ({ version: Number(f.m[1]), name: f.name }))
    .sort((a, b) => a.version - b.version);
}

/**
 * Applies the migrations not applied yet, in order, in one transaction. The transaction first
 * takes an advisory lock, so of several instances starting together one applies them and the
 * others then find them recorded in `mail_schema_migrations`. Returns the versions applied.
 */
export async function migrate(pool: Pool, dir = MIGRATIONS_DIR): Promise<number[]> {
  const files = migrationFiles(dir);
  const client: PoolClient = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['mail-service migrations']);
    await client.query(`CREATE TABLE IF NOT EXISTS mail_schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM mail_schema_migrations',
    );
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const file of files) {
      if (done.has(file.version)) continue;
      await client.query(readFileSync(path.join(dir, file.name), 'utf8'));
      await client.query('INSERT INTO mail_schema_migrations (version, name) VALUES ($1, $2)', [
        file.version,
        file.name,
      ]);
      applied.push(file.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Whether an error says the database could not be reached (rather than that it refused a
 * statement): a connection error, a server shutting down or out of resources, or no answer.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof DatabaseError) return /^(08|57P|53)/.test(error.code ?? '');
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND)$/.test(code)) ||
    (error instanceof Error &&
      /Connection terminated|timeout exceeded when trying to connect/i.test(error.message))
  );
}
