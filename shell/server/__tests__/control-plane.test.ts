/**
 * @jest-environment node
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { StaleManifestError, live, type LiveManifest } from '../control-plane';
import type { PostgresControlPlane } from '../control-plane/postgres';
import { migrate } from '../control-plane/migrate';
import {
  deployDirWith,
  deployNext,
  deployOf,
  manifestJson,
  startStores,
  timeUntil,
  NOTIFIED_MS,
} from './control-plane-helpers';
import { freshDatabase } from './test-postgres';

jest.setTimeout(60_000);

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(sql);
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('the control plane in PostgreSQL', () => {
  test('migrations are applied once, even by replicas that start together', async () => {
    const url = await freshDatabase();
    const pools = [1, 2, 3].map(() => new pg.Pool({ connectionString: url }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      // Every file of the migrations folder, in order, each by one of the three.
      const files = readdirSync(path.join(__dirname, '..', 'control-plane', 'migrations'))
        .filter((name) => name.endsWith('.sql'))
        .sort();
      expect(files.slice(0, 2)).toEqual(['001_control_plane.sql', '002_releases.sql']);
      expect(applied.flat().sort()).toEqual(files);
      expect(await migrate(pools[0]!)).toEqual([]);
      expect(await count(url, 'SELECT count(*) AS n FROM shell_migrations')).toBe(files.length);
      expect(await count(url, 'SELECT count(*) AS n FROM live_manifest')).toBe(1);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  test('an empty database starts from DEPLOY_DIR/remotes.json once, with three replicas starting together', async () => {
    const url = await freshDatabase();
    const deployDir = deployDirWith(manifestJson('1.0.0'));
    const fileVersion = live(readFileSync(path.join(deployDir, 'remotes.json'), 'utf8')).version;
    const { stores, logs, close } = await startStores(url, deployDir, 3);
    try {
      for (const store of stores) {
        expect(store.peek()?.version).toBe(fileVersion);
        expect((await store.get()).manifest.remotes.map((r) => r.name)).toEqual([
          'custom_dev',
          'data',
        ]);
      }
      const history = await stores[2]!.history();
      expect(history.map((e) => [e.action, e.by, e.remote, e.from, e.to.version])).toEqual([
        ['seed', 'site', 'custom_dev', null, '1.0.0'],
        ['seed', 'site', 'data', null, '1.0.0'],
      ]);
      expect(history.every((e) => e.manifestVersion === fileVersion)).toBe(true);
      expect(await count(url, 'SELECT count(*) AS n FROM manifest_versions')).toBe(1);
      expect(logs.filter((line) => line.includes('starts from'))).toHaveLength(1);
    } finally {
      await close();
    }
    // A later start finds the database seeded and leaves it as it is.
    const again = await startStores(url, deployDirWith(manifestJson('9.9.9')), 1);
    try {
      expect(again.stores[0]!.peek()?.version).toBe(fileVersion);
      expect(await again.stores[0]!.history()).toHaveLength(2);
    } finally {
      await again.close();
    }
  });

  test('two replicas publishing from the same base 100 times: exactly one wins each time', async () => {
    const url = await freshDatabase();
    const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 2);
    const [one, two] = stores as [(typeof stores)[0], (typeof stores)[0]];
    try {
      const winners: string[] = [];
      const wins = [0, 0];
      for (let i = 1; i <= 100; i++) {
        const before = await one.get();
        const version = `1.${i}.0`;
        const attempts = [one, two].map((store, n) => {
          const origin = `https://replica-${n + 1}.example.com`;
          return store.publish(
            manifestJson(version, origin),
            before.version,
            deployOf(before, version, origin),
          );
        });
        const results = await Promise.allSettled(attempts);
        const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]).toBeInstanceOf(StaleManifestError);
        expect((lost[0] as StaleManifestError).live).toBe(won[0]!.version);
        wins[results.findIndex((r) => r.status === 'fulfilled')]! += 1;
        winners.push(won[0]!.version);
        // Both replicas hear of the winner's change before the next round starts from it.
        await timeUntil(
          () => one.peek()?.version === won[0]!.version && two.peek()?.version === won[0]!.version,
          NOTIFIED_MS,
        );
      }
      const deploys = (await two.history('data')).filter((e) => e.action === 'deploy');
      expect(deploys.map((e) => e.manifestVersion)).toEqual(winners);
      expect(deploys.map((e) => e.to.version)).toEqual(
        Array.from({ length: 100 }, (_, i) => `1.${i + 1}.0`),
      );
      // Each change starts from the one before it: no gap, no change recorded twice.
      deploys.forEach((entry, i) => {
        expect(entry.from?.version).toBe(i === 0 ? '1.0.0' : deploys[i - 1]!.to.version);
        expect(entry.from?.entry).toBe(
          i === 0 ? 'https://cdn.example.com/data/1.0.0/remoteEntry.js' : deploys[i - 1]!.to.entry,
        );
      });
      const last = winners[winners.length - 1]!;
      expect((await one.get()).version).toBe(last);
      expect((await two.get()).version).toBe(last);
      console.log(`control plane: 100 races, replica 1 won ${wins[0]}, replica 2 won ${wins[1]}`);
    } finally {
      await close();
    }
  });

  test('every replica serves each change by notification alone, the poll switched off', async () => {
    const url = await freshDatabase();
    // No poll to help: the notification alone must bring the change.
    const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 3, {
      pollMs: 60_000,
    });
    const [one, two, three] = stores as [
      (typeof stores)[0],
      (typeof stores)[0],
      (typeof stores)[0],
    ];
    try {
      const latencies: number[] = [];
      for (let i = 1; i <= 20; i++) {
        const before = await one.get();
        const version = `2.${i}.0`;
        const after: LiveManifest = await one.publish(
          manifestJson(version),
          before.version,
          deployOf(before, version),
        );
        latencies.push(
          await timeUntil(
            () => two.peek()?.version === after.version && three.peek()?.version === after.version,
            NOTIFIED_MS,
          ),
        );
        expect((await two.get()).manifest.remotes.find((r) => r.name === 'data')?.version).toBe(
          version,
        );
        expect((await three.get()).version).toBe(after.version);
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
      console.log(
        `control plane: a change reaches two other replicas in p50 ${sorted[9]!.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted[19]!.toFixed(1)} ms (20 changes)`,
      );
      // The time itself is a benchmark figure (npm run bench -- --only replicas), not a test's.
    } finally {
      await close();
    }
  });

  test('a change records its history entry; a change from the base it replaced is refused and records nothing', async () => {
    const url = await freshDatabase();
    const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 1);
    const store = stores[0]!;
    try {
      const { before, after } = await deployNext(store, '1.1.0');
      expect(store.peek()?.version ?? (await store.get()).version).toBe(after.version);
      expect((await store.history('data')).filter((e) => e.action === 'deploy')).toEqual([
        expect.objectContaining({
          from: expect.objectContaining({ version: '1.0.0' }) as unknown,
          to: expect.objectContaining({ version: '1.1.0' }) as unknown,
          manifestVersion: after.version,
        }),
      ]);

      await expect(
        store.publish(manifestJson('1.2.0'), before.version, deployOf(before, '1.2.0')),
      ).rejects.toEqual(new StaleManifestError(after.version));
      expect((await store.get()).version).toBe(after.version);
      expect((await store.history()).filter((e) => e.action === 'deploy')).toHaveLength(1);
    } finally {
      await close();
    }
  });

  test('group tokens made together are all kept, each verified by its own secret', async () => {
    const url = await freshDatabase();
    const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 2);
    try {
      const groups = ['alpha', 'beta', 'gamma', 'delta'];
      // Made on two replicas at once.
      const made = await Promise.all(
        groups.map((group, i) => stores[i % 2]!.tokens.create([group])),
      );
      expect((await stores[0]!.tokens.list()).map((t) => t.groups[0]).sort()).toEqual(
        [...groups].sort(),
      );
      for (const { token, record } of made) {
        expect(await stores[1]!.tokens.verify(token)).toEqual(record);
      }
      const first = made[0]!.token;
      const forged = `${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`;
      expect(await stores[0]!.tokens.verify(forged)).toBeUndefined();
    } finally {
      await close();
    }
  });

  test('a change from a base that is not live is refused and changes nothing', async () => {
    const url = await freshDatabase();
    const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 1);
    const store = stores[0]!;
    try {
      const before = await store.get();
      await expect(
        store.publish(manifestJson('3.0.0'), 'a1b2c3d4e5f6', deployOf(before, '3.0.0')),
      ).rejects.toEqual(new StaleManifestError(before.version));
      expect((await store.get()).version).toBe(before.version);
      expect((await store.history()).filter((e) => e.action === 'deploy')).toEqual([]);
    } finally {
      await close();
    }
  });

  test('read() answers what the database holds now, even on a replica a change has not reached yet', async () => {
    const url = await freshDatabase();
    // Polled once a minute: only a notification, or a read, tells a replica of a change.
    const { stores, close } = await startStores(url, deployDirWith(manifestJson('1.0.0')), 2, {
      pollMs: 60_000,
    });
    const [one, two] = stores as [PostgresControlPlane, PostgresControlPlane];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { before: first, after: second } = await deployNext(one, '1.1.0');
      await timeUntil(() => two.peek()?.version === second.version, NOTIFIED_MS);
      // Another server's change whose notification has not arrived: the pointer moved back to the
      // first manifest, with no notification.
      await client.query('UPDATE live_manifest SET version = $1, seq = seq + 1 WHERE id', [
        first.version,
      ]);
      expect((await two.get()).version).toBe(second.version);
      expect((await two.read()).version).toBe(first.version);
      // And from then on the replica serves what it read.
      expect(two.peek()?.version).toBe(first.version);
    } finally {
      await client.end();
      await close();
    }
  });
});
