import type { Config } from '../config';
import { openPostgres, type Postgres } from '../postgres';
import { Outbox, type OutboxOptions } from './outbox';
import { moveInSqlite } from './move-in';

/**
 * The outbox in the PostgreSQL of DATABASE_URL, with the pool it runs on (one per process, which
 * the caller closes after the outbox). An outbox file an earlier start kept in DATA_DIR moves into
 * the database before anything runs.
 */
export function openOutbox(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>,
  options: OutboxOptions = {},
  log: (message: string) => void = () => undefined,
): { outbox: Outbox; postgres: Postgres } {
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
  return { outbox: new Outbox(postgres, options), postgres };
}
