/**
 * @jest-environment node
 */
import { ephemeralPort } from '@site/build/testing/ports';
import { lineLogger } from '../http/logger';
import {
  ControlPlaneUnavailableError,
  StaleManifestError,
  type LiveManifest,
} from '../control-plane';
import { PostgresControlPlane } from '../control-plane/postgres';
import {
  deployDirWith,
  deployNext,
  deployOf,
  manifestJson,
  startStores,
  timeUntil,
  NOTIFIED_MS,
} from './control-plane-helpers';
import { startPostgres, type TestPostgres } from './test-postgres';

jest.setTimeout(90_000);

// A server of this file's own, on a free port: its tests stop it.
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether each of `count` replicas has said that the database is unreachable and it serves `version`. */
const everyReplicaDown = (logs: string[], count: number, version: string) =>
  Array.from({ length: count }, (_, i) => `${i + 1}: `).every((replica) =>
    logs.some(
      (line) => line.startsWith(replica) && line.includes('unreachable') && line.includes(version),
    ),
  );

test('while PostgreSQL is down (until every replica has noticed), replicas serve their last manifest and refuse changes; then they go on', async () => {
  const { stores, logs, close } = await startStores(
    postgres.url,
    deployDirWith(manifestJson('1.0.0')),
    3,
  );
  const [one, two, three] = stores as [
    PostgresControlPlane,
    PostgresControlPlane,
    PostgresControlPlane,
  ];
  try {
    const { after: first } = await deployNext(one, '1.1.0');
    await timeUntil(() => stores.every((s) => s.peek()?.version === first.version), NOTIFIED_MS);

    expect(stores.map((s) => s.reachable())).toEqual([true, true, true]);
    await postgres.pause();
    const downSince = Date.now();
    // What /_ready reports: each replica knows the database is away (its LISTEN connection is lost).
    await timeUntil(() => stores.every((s) => !s.reachable()), 5000);
    const refusals: unknown[] = [];
    // Down until every replica has found it out on its own (its poll, every 5 s, or its LISTEN
    // connection's loss) and a few changes have been refused meanwhile.
    while (refusals.length < 5 || !everyReplicaDown(logs, stores.length, first.version)) {
      if (Date.now() - downSince > 30_000) {
        throw new Error(`not every replica noticed the outage within 30 s:\n${logs.join('\n')}`);
      }
      for (const store of stores) {
        expect((await store.get()).version).toBe(first.version);
        expect(store.peek()?.version ?? first.version).toBe(first.version);
      }
      refusals.push(
        await one
          .publish(manifestJson('1.2.0'), first.version, deployOf(first, '1.2.0'))
          .catch((error: unknown) => error),
      );
      await sleep(100);
    }
    expect(refusals.length).toBeGreaterThanOrEqual(5);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(ControlPlaneUnavailableError);
      expect((refusal as Error).message).toMatch(
        /^the control-plane database is unreachable: .+; nothing was changed$/,
      );
    }
    await expect(two.history()).rejects.toBeInstanceOf(ControlPlaneUnavailableError);
    // What the deploy API answers a command that lost its answer: not the copy in memory, which
    // may predate a change that went live, but that the live manifest cannot be read now.
    const read = await three.read().catch((error: unknown) => error);
    expect(read).toBeInstanceOf(ControlPlaneUnavailableError);
    expect((read as Error).message).toMatch(
      /^the control-plane database is unreachable: .+; the live manifest cannot be read now, and nothing was changed$/,
    );
    expect((await three.get()).version).toBe(first.version);

    await postgres.resume();
    // The first change after the outage, from the manifest every replica kept serving.
    let next: LiveManifest | undefined;
    const upSince = Date.now();
    while (!next) {
      try {
        next = await two.publish(manifestJson('1.2.0'), first.version, deployOf(first, '1.2.0'));
      } catch (error) {
        expect(error).toBeInstanceOf(ControlPlaneUnavailableError);
        if (Date.now() - upSince > 10_000) throw error;
        await sleep(200);
      }
    }
    const published = next;
    console.log(
      `control plane: the first change after the outage went live ${Date.now() - upSince} ms after PostgreSQL was back`,
    );
    const caughtUp = await timeUntil(
      () => stores.every((s) => s.peek()?.version === published.version),
      5000,
    );
    console.log(`control plane: every replica served it ${caughtUp.toFixed(0)} ms later`);
    await timeUntil(() => stores.every((s) => s.reachable()), 5000);
    // The history holds every change that was made and none that was refused.
    expect((await three.history('data')).map((e) => [e.action, e.to.version])).toEqual([
      ['seed', '1.0.0'],
      ['deploy', '1.1.0'],
      ['deploy', '1.2.0'],
    ]);
    // Notifications flow again: a change through the third replica reaches the first in time.
    const after = await three.publish(
      manifestJson('1.3.0'),
      published.version,
      deployOf(published, '1.3.0'),
    );
    await timeUntil(() => one.peek()?.version === after.version, NOTIFIED_MS);
    await expect(
      one.publish(manifestJson('1.4.0'), published.version, deployOf(published, '1.4.0')),
    ).rejects.toBeInstanceOf(StaleManifestError);
  } finally {
    await close();
  }
});

test('a replica that cannot reach its database at start-up tries again, then gives up saying why', async () => {
  const logs: string[] = [];
  // A free port: no database answers there.
  const port = await ephemeralPort();
  const store = new PostgresControlPlane({
    url: `postgres://site:secret@127.0.0.1:${port}/site`,
    deployDir: deployDirWith(manifestJson('1.0.0')),
    log: lineLogger((message) => logs.push(message)),
    startTimeoutMs: 2500,
  });
  const started = Date.now();
  const failure = await store.start().catch((error: unknown) => error);
  await store.close();
  expect(failure).toBeInstanceOf(ControlPlaneUnavailableError);
  expect((failure as Error).message).toBe(
    `the control-plane database postgres://site:***@127.0.0.1:${port}/site is unreachable (connect ECONNREFUSED 127.0.0.1:${port}); gave up after 3 s`,
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatch(
    new RegExp(
      `^site: the control-plane database postgres://site:\\*\\*\\*@127\\.0\\.0\\.1:${port}/site is unreachable \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); trying again for up to \\d+ s$`,
    ),
  );
  expect(logs.join('\n')).not.toContain('secret');
});
