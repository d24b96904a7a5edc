/**
 * @jest-environment node
 */
import pg from 'pg';
import { DeadlinePassedError } from '../control-plane';
import { PostgresControlPlane } from '../control-plane/postgres';
import { inTime } from '../control-plane/postgres-change';
import {
  deployDirWith,
  deployOf,
  manifestJson,
  startStores,
  timeUntil,
} from './control-plane-helpers';
import { freshDatabase } from './test-postgres';

/**
 * A change carries a deadline: the moment its client stops waiting. However long the replica
 * making it is held up (a lock, a pause of its process), the change never goes live after it, so
 * the client that gave up and read "not live" was told the truth.
 */
jest.setTimeout(90_000);

test('a change held up past its deadline inside its transaction is refused, and nothing of it goes live', async () => {
  const url = await freshDatabase();
  const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 1);
  const store = stores[0] as PostgresControlPlane;
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    const seeded = await store.get();
    const historyBefore = await store.history();
    // Another transaction holds the live pointer: the change waits for it inside its own.
    await holder.query('BEGIN');
    await holder.query('SELECT version FROM live_manifest WHERE id FOR UPDATE');
    const deadline = new Date(Date.now() + 1000);
    const change = store
      .publish(manifestJson('1.1.0'), seeded.version, deployOf(seeded, '1.1.0'), { deadline })
      .catch((error: unknown) => error);
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    for (let waiting = 0; waiting === 0;) {
      const { rows } = await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query LIKE '%FROM live_manifest%FOR UPDATE%'`,
      );
      waiting = rows[0]!.n;
    }
    await watcher.end();
    await timeUntil(() => Date.now() > deadline.getTime(), 5000);
    await holder.query('ROLLBACK');
    const refused = await change;
    expect(refused).toBeInstanceOf(DeadlinePassedError);
    expect((refused as Error).message).toBe(
      `its deadline ${deadline.toISOString()} passed before it could go live`,
    );
    expect((await store.get()).version).toBe(seeded.version);
    expect(await store.history()).toEqual(historyBefore);
    // With time left, the same change goes live.
    const next = await store.publish(
      manifestJson('1.1.0'),
      seeded.version,
      deployOf(seeded, '1.1.0'),
      { deadline: new Date(Date.now() + 30_000) },
    );
    expect((await store.get()).version).toBe(next.version);
  } finally {
    await holder.end();
    await close();
  }
});

test('a transaction whose client stalls between its last check and its COMMIT is ended by the database at the deadline', async () => {
  const url = await freshDatabase();
  const client = new pg.Client({ connectionString: url });
  const reader = new pg.Client({ connectionString: url });
  await client.connect();
  await reader.connect();
  client.on('error', () => undefined);
  try {
    await reader.query('CREATE TABLE changes (what text)');
    await client.query('BEGIN');
    await client.query(`INSERT INTO changes VALUES ('late')`);
    const deadline = new Date(Date.now() + 1000);
    await inTime(client, deadline);
    // The stall: the client sends nothing until well after the deadline.
    await timeUntil(() => Date.now() > deadline.getTime() + 1000, 5000);
    await expect(client.query('COMMIT')).rejects.toThrow();
    const { rows } = await reader.query('SELECT what FROM changes');
    expect(rows).toEqual([]);
  } finally {
    await client.end().catch(() => undefined);
    await reader.end();
  }
});

test('a deadline already passed is refused before the transaction touches anything', async () => {
  const url = await freshDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await expect(inTime(client, new Date(Date.now() - 1))).rejects.toBeInstanceOf(
      DeadlinePassedError,
    );
    await client.query('ROLLBACK');
  } finally {
    await client.end();
  }
});
