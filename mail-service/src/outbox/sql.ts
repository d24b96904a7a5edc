/**
 * How the outbox's statements run: on the process's PostgreSQL pool (../postgres.ts) once its
 * schema is current, alone or in one transaction; and the notification that tells every instance
 * a message was queued.
 */
import type { PoolClient } from 'pg';
import { listen, transaction, type Listener } from '@site/postgres';
import type { Postgres } from '../postgres';

/** Runs the outbox's statements (`$1`, `$2`, ... parameters). */
export interface Sql {
  all<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** Resolves to the number of rows changed. */
  run(text: string, params?: unknown[]): Promise<number>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** Statements on the pool; each waits for the migrations first. */
export function sqlOn(pg: Postgres): Sql {
  const on = (client: Pick<PoolClient, 'query'>): Sql => ({
    async all<R>(text: string, params: unknown[] = []) {
      await pg.ready;
      return (await client.query(text, params)).rows as R[];
    },
    async run(text, params = []) {
      await pg.ready;
      return (await client.query(text, params)).rowCount ?? 0;
    },
    async transaction(fn) {
      await pg.ready;
      return transaction(pg.pool, (c) => fn(on(c)));
    },
  });
  return on(pg.pool);
}

/** The channel a queued message is announced on. */
const CHANNEL = 'mail_outbox_stored';

/** Announces, in `tx`, that a message was queued: sent only if the transaction commits. */
export async function announceQueued(tx: Sql): Promise<void> {
  await tx.all(`SELECT pg_notify('${CHANNEL}', '')`);
}

/**
 * Calls `wake` when any instance announces a queued message (LISTEN, on a connection of its own
 * that is made again when lost), and again after each reconnection.
 */
export const onQueued = (pg: Postgres, wake: () => void): Listener =>
  listen({ url: pg.url, channel: CHANNEL, onNotify: wake, onListening: wake });
