import type { Config } from '../config';
import { openPostgres, type Postgres } from '../postgres';
import { Outbox } from './outbox';
import { PostgresOutbox } from './postgres-outbox';
import type { OutboxStore } from './store';

/**
 * The outbox the settings choose: PostgreSQL shared by every instance when DATABASE_URL is set
 * (with the pool it runs on, one per process), else the SQLite file in DATA_DIR.
 */
export function openOutbox(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  { now = Date.now, leaseMs }: { now?: () => number; leaseMs?: number } = {},
): { outbox: OutboxStore; postgres?: Postgres } {
  if (!config.databaseUrl) return { outbox: Outbox.open(config.dataDir, now) };
  const postgres = openPostgres(config.databaseUrl);
  const outbox = new PostgresOutbox(postgres, { now, ...(leaseMs ? { leaseMs } : {}) });
  return { outbox, postgres };
}
