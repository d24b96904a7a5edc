import type { Config } from '../config';
import { openPostgres, type Postgres } from '../postgres';
import { Outbox, type OutboxOptions } from './outbox';
import { sqliteStore } from './schema';
import { postgresStore } from './sql';
import { moveInSqlite } from './move-in';

/**
 * The outbox the settings choose: PostgreSQL shared by every instance when DATABASE_URL is set
 * (with the pool it runs on, one per process), else the SQLite file in DATA_DIR.
 */
export function openOutbox(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  options: OutboxOptions = {},
  log: (message: string) => void = () => undefined,
): { outbox: Outbox; postgres?: Postgres } {
  if (!config.DATABASE_URL) return { outbox: new Outbox(sqliteStore(config.DATA_DIR), options) };
  // An outbox file an earlier start kept in DATA_DIR moves into the database before anything runs.
  const postgres = openPostgres(config.DATABASE_URL, {
    afterMigrations: async (pool) => {
      const moved = await moveInSqlite(pool, config.DATA_DIR);
      if (moved) {
        log(
          `moved the outbox file ${moved.file} into PostgreSQL: ${moved.messages} messages (${moved.queued} still to deliver); the file is deleted`,
        );
      }
    },
  });
  return { outbox: new Outbox(postgresStore(postgres), options), postgres };
}
