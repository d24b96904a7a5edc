/**
 * The outbox stores the tests run against: SQLite in each harness's own folder, or a real
 * PostgreSQL of the describe block's own, emptied before each test.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { openPostgres } from '../postgres';

export interface TestPostgres {
  url: string;
  /** Stops the server, keeping its data (the database is down); `resume()` starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL on `port`: `startPostgres` of @site/build/testing/postgres, run in a process
 * of its own (postgres-process.ts says why).
 */
export function startPostgres(port: number): Promise<TestPostgres> {
  const child = fork(path.join(__dirname, 'postgres-process.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const early = () => reject(new Error(`PostgreSQL on port ${port} did not start`));
    child.once('exit', early);
    child.once('message', (message: { url: string }) => {
      child.off('exit', early);
      const command = (name: 'pause' | 'resume') =>
        new Promise<void>((done, fail) => {
          child.once('message', (answer: { done?: string; error?: string }) =>
            answer.done === name ? done() : fail(new Error(`PostgreSQL: ${answer.error}`)),
          );
          child.send(name);
        });
      resolve({
        url: message.url,
        pause: () => command('pause'),
        resume: () => command('resume'),
        stop() {
          if (child.connected) child.disconnect();
          return exited;
        },
      });
    });
  });
}

export type StoreKind = 'sqlite' | 'postgres';
/** The outbox stores the fault suite runs against. */
export const STORE_KINDS: StoreKind[] = ['sqlite', 'postgres'];

/** The settings that point a service at a store: filled in before the block's first test. */
export interface TestStore {
  kind: StoreKind;
  /** `{}` for SQLite (each harness has a DATA_DIR of its own), `{ DATABASE_URL }` for PostgreSQL. */
  env: Record<string, string>;
  postgres?: TestPostgres;
}

/**
 * The store for the tests of the enclosing describe block. PostgreSQL: a server of its own on
 * `port` (3490-3499), started before the block and removed after it, migrated once, and emptied
 * before each test, so that each test starts with an empty outbox as with SQLite.
 */
export function testStore(kind: StoreKind, port: number): TestStore {
  const store: TestStore = { kind, env: {} };
  if (kind === 'sqlite') return store;
  beforeAll(async () => {
    store.postgres = await startPostgres(port);
    store.env = { DATABASE_URL: store.postgres.url };
    const pg = openPostgres(store.postgres.url, { max: 1 });
    try {
      await pg.ready;
    } finally {
      await pg.close();
    }
  }, 60_000);
  beforeEach(async () => {
    const client = new Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('TRUNCATE mail_messages, mail_rate_limits, mail_probe, mail_erasures');
      await client.query('UPDATE mail_digest SET last_sent_at = NULL, claimed_until = NULL');
    } finally {
      await client.end();
    }
  });
  afterAll(async () => {
    await store.postgres?.stop();
  }, 30_000);
  return store;
}

/** Runs SQL on the store's test database, on a connection of its own, and gives back the rows. */
export const queryOn =
  (store: TestStore) =>
  async <R extends object>(sql: string, args: unknown[] = []): Promise<R[]> => {
    const client = new Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<R>(sql, args)).rows;
    } finally {
      await client.end();
    }
  };
