/**
 * A pool's connection held by its caller, and a transaction on one. While a caller holds a
 * connection, the pool no longer listens for its errors, and a connection the server drops between
 * two queries (a restart, a shutdown, an administrator's kill) emits an `error` event that no one
 * hears, which ends the process. Held here, such a connection counts as broken instead: the
 * caller's next query fails as a query does, and it is never handed out again.
 */
import type { Pool, PoolClient } from 'pg';

export interface HeldConnection {
  readonly client: PoolClient;
  /** The error the connection reported between queries, if any. */
  readonly lost: () => unknown;
  /** Hands the connection back, or ends it when `broken` or lost. */
  release(broken?: boolean): void;
}

export async function holdConnection(pool: Pool): Promise<HeldConnection> {
  const client = await pool.connect();
  let lost: unknown;
  const onError = (error: unknown) => {
    lost ??= error;
  };
  client.on('error', onError);
  let released = false;
  return {
    client,
    lost: () => lost,
    release(broken = false) {
      if (released) return;
      released = true;
      const ended = broken || lost !== undefined;
      // A connection handed back is the pool's to listen to again; one that is ended keeps this
      // listener for whatever it still reports while it closes.
      if (!ended) client.off('error', onError);
      client.release(ended);
    },
  };
}

/**
 * Runs `fn` in a transaction on a connection of its own: COMMIT when it resolves, ROLLBACK when it
 * throws (the error is passed on). A connection that failed mid-transaction is not handed out again.
 */
export async function transaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const held = await holdConnection(pool);
  let failed = false;
  try {
    await held.client.query('BEGIN');
    const result = await fn(held.client);
    await held.client.query('COMMIT');
    return result;
  } catch (error) {
    failed = true;
    await held.client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    held.release(failed);
  }
}
