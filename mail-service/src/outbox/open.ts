import type { Config } from '../config';
import { openPostgres, type Postgres } from '../postgres';
import { Outbox, type OutboxOptions } from './outbox';
import { sqliteStore } from './schema';
import { postgresStore } from './sql';

/**
 * The outbox the settings choose: PostgreSQL shared by every instance when DATABASE_URL is set
 * (with the pool it runs on, one per process), else the SQLite file in DATA_DIR.
 */
export function openOutbox(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  options: OutboxOptions = {},
): { outbox: Outbox; postgres?: Postgres } {
  if (!config.DATABASE_URL) return { outbox: new Outbox(sqliteStore(config.DATA_DIR), options) };
  const postgres = openPostgres(config.DATABASE_URL);
  return { outbox: new Outbox(postgresStore(postgres), options), postgres };
}
