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
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: OutboxOptions = {},
): { outbox: Outbox; postgres?: Postgres } {
  if (!config.databaseUrl) return { outbox: new Outbox(sqliteStore(config.dataDir), options) };
  const postgres = openPostgres(config.databaseUrl);
  return { outbox: new Outbox(postgresStore(postgres), options), postgres };
}
