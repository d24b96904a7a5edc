/**
 * @jest-environment node
 *
 * A deploy folder an earlier single site server kept its control plane in (the live manifest, the
 * history, the groups' token digests, the canary counts) moves into an empty PostgreSQL on the first
 * start with DATABASE_URL: whole, once, however many replicas start together.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lineLogger } from '../http/logger';
import { FileControlPlane } from '../control-plane/files';
import { FileCountStore } from '../control-plane/counts-files';
import { PostgresCountStore } from '../control-plane/counts-postgres';
import { MOVED_DIR } from '../control-plane/move-in';
import {
  deployDirWith,
  deployOf,
  freshDatabase,
  manifestJson,
  startPostgres,
  startStores,
  type TestPostgres,
} from './control-plane-helpers';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startPostgres({ port: 3475 });
}, 60_000);

afterAll(() => postgres?.stop());

/** A deploy folder as an earlier `npm start` left it: two deploys, a team token, canary counts. */
async function earlierRun() {
  const dir = deployDirWith(manifestJson('1.0.0'));
  const files = new FileControlPlane(
    dir,
    lineLogger(() => undefined),
  );
  let live = await files.start();
  live = await files.publish({ ...manifestJson('1.1.0') }, live.version, deployOf(live, '1.1.0'));
  live = await files.publish({ ...manifestJson('1.2.0') }, live.version, deployOf(live, '1.2.0'));
  const issued = await files.tokens.create(['data']);
  const revoked = await files.tokens.create(['custom_dev']);
  await files.tokens.revoke(revoked.record.id);
  await files.close();
  const counts = new FileCountStore(dir);
  const second = Math.floor(Date.now() / 1000);
  await counts.add(
    [{ group: 'data', version: '1.2.0', second, views: 7, errors: 1 }],
    [{ group: 'data', version: '1.2.0', second, nonce: 'n-1', expiresAt: Date.now() + 60_000 }],
  );
  await counts.close();
  return { dir, live, history: await files.history(), token: issued.token, revoked, second };
}

test('the first start on a database takes the files whole; the next start finds nothing to move', async () => {
  const before = await earlierRun();
  const url = await freshDatabase(postgres.url);

  const { stores, logs, close } = await startStores(url, before.dir, 1);
  const [plane] = stores;
  try {
    expect(plane!.peek()?.version).toBe(before.live.version);
    expect(await plane!.history()).toEqual(before.history);
    expect(before.history.map((e) => e.to.version)).toEqual(['1.1.0', '1.2.0']);
    expect((await plane!.tokens.verify(before.token))?.groups).toEqual(['data']);
    expect((await plane!.tokens.list()).find((t) => t.id === before.revoked.record.id)).toEqual(
      expect.objectContaining({ revokedAt: expect.any(String) as unknown }),
    );
    const counts = new PostgresCountStore(url);
    expect(await counts.sum('data', '1.2.0', before.second - 10)).toEqual({ views: 7, errors: 2 });
    await counts.close();
    expect(logs.join('\n')).toMatch(
      /moved the file store of .* into PostgreSQL: manifest \w+, 2 history entries, 2 deploy tokens, 1 canary count rows/,
    );

    // What was moved is put aside where nothing reads it, unreadable by any other user.
    for (const name of ['history.jsonl', 'group-tokens.json', 'canary-counts.json']) {
      expect(existsSync(path.join(before.dir, name))).toBe(false);
      expect(existsSync(path.join(before.dir, MOVED_DIR, name))).toBe(true);
    }
    expect(readFileSync(path.join(before.dir, 'remotes.json'), 'utf8')).toBe(before.live.text);
  } finally {
    await close();
  }

  const again = await startStores(url, before.dir, 1);
  try {
    expect(again.logs.join('\n')).not.toMatch(/moved/);
    expect(await again.stores[0]!.history()).toEqual(before.history);
  } finally {
    await again.close();
  }
});

test('replicas starting together on the files move them once', async () => {
  const before = await earlierRun();
  const url = await freshDatabase(postgres.url);
  const { stores, logs, close } = await startStores(url, before.dir, 3);
  try {
    for (const plane of stores) expect(plane.peek()?.version).toBe(before.live.version);
    expect(await stores[1]!.history()).toEqual(before.history);
    expect(logs.filter((line) => /moved the file store/.test(line))).toHaveLength(1);
  } finally {
    await close();
  }
});

test('a token file that is not valid stops the start with what to do, and moves nothing', async () => {
  const before = await earlierRun();
  const url = await freshDatabase(postgres.url);
  const tokens = path.join(before.dir, 'group-tokens.json');
  writeFileSync(tokens, '{"tokens": [');
  await expect(startStores(url, before.dir, 1)).rejects.toThrow(
    /group-tokens\.json is not valid JSON .*mend it or move it out of the deploy folder/,
  );
  expect(existsSync(path.join(before.dir, 'history.jsonl'))).toBe(true);
});
