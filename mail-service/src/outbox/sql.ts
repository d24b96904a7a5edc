/**
 * What the outbox asks of a store: a way to run its statements, and the few things SQLite and
 * PostgreSQL spell or do differently. Every statement of the outbox is written once, with `?`
 * parameters and the tables' common names (`mail_*`); this file runs them on PostgreSQL, sqlite.ts
 * on node:sqlite.
 */
import type { PoolClient, QueryResult } from 'pg';
import { listen, transaction, type Listener } from '@site/postgres';
import type { Postgres } from '../postgres';

export interface RunOptions {
  /**
   * false: the commit need not wait for the disk (SQLite; PostgreSQL commits as configured). For
   * writes whose loss in a power cut only repeats work: a claim, an attempt's result.
   */
  durable?: boolean;
}

/** Runs the outbox's statements on one store. */
export interface Sql {
  all<R>(text: string, params?: unknown[], options?: RunOptions): Promise<R[]>;
  /** Resolves to the number of rows changed. */
  run(text: string, params?: unknown[], options?: RunOptions): Promise<number>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** One store: how its statements run, and what it does differently. */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Other processes deliver from it too: claims are renewed, and checked before each send. */
  readonly shared: boolean;
  readonly sql: Sql;
  /** The clock leases are set and compared on, in ms: the database's, the one all instances share. */
  readonly clock: string;
  /** The larger of two values (PostgreSQL's GREATEST, SQLite's two-argument MAX). */
  readonly greatest: string;
  /** After the claim's SELECT: rows another instance is claiming are skipped, not waited for. */
  readonly skipLocked: string;
  /** Resolves once the store can be used (PostgreSQL: connected and migrated). */
  readonly ready: Promise<void>;
  /** Announces, in `tx`, that a message was queued: sent only if the transaction commits. */
  announce(tx: Sql): Promise<void>;
  /** Calls `wake` when another process announced a message; undefined when no one else can. */
  onAnnounced(wake: () => void): Listener | undefined;
  /** After an erasure: makes the deleted rows unreadable in the store's files, as far as it can. */
  scrub(): Promise<void>;
  close(): Promise<void>;
}

/** `?` placeholders as PostgreSQL numbers them. */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

/** The channel a queued message is announced on. */
const CHANNEL = 'mail_outbox_stored';

/** The outbox in the PostgreSQL every instance shares (the pool and migrations: ../postgres.ts). */
export function postgresStore(pg: Postgres): Store {
  const on = (client: Pick<PoolClient, 'query'>): Sql => {
    const query = async (text: string, params: unknown[] = []): Promise<QueryResult> => {
      await pg.ready;
      return client.query(numbered(text), params);
    };
    return {
      all: async <R>(text: string, params?: unknown[]) => (await query(text, params)).rows as R[],
      run: async (text, params) => (await query(text, params)).rowCount ?? 0,
      async transaction(fn) {
        await pg.ready;
        return transaction(pg.pool, (c) => fn(on(c)));
      },
    };
  };
  return {
    kind: 'postgres',
    shared: true,
    sql: on(pg.pool),
    // The database's clock: a machine whose clock runs ahead cannot take another's claims early.
    clock: '(extract(epoch from clock_timestamp()) * 1000)::bigint',
    greatest: 'GREATEST',
    skipLocked: 'FOR UPDATE SKIP LOCKED',
    ready: pg.ready,
    announce: async (tx) => void (await tx.all(`SELECT pg_notify('${CHANNEL}', '')`)),
    onAnnounced: (wake) =>
      listen({ url: pg.url, channel: CHANNEL, onNotify: wake, onListening: wake }),
    // The freed space is reused; the WAL, archives and backups are the README's "Personal data".
    scrub: async () => {
      await pg.ready;
      await pg.pool.query('VACUUM mail_messages');
    },
    close: async () => undefined,
  };
}
