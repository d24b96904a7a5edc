/**
 * @jest-environment node
 *
 * A deploy folder an earlier single site server kept its control plane in (the live manifest, the
 * history, the groups' token digests, the canary counts) moves into an empty PostgreSQL on the first
 * start with DATABASE_URL: whole, once, however many replicas start together.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CountRow } from '../canary/counts';
import { live, manifestText, type HistoryDraft, type LiveManifest } from '../control-plane';
import { PostgresCountStore } from '../control-plane/counts-postgres';
import { MOVED_DIR } from '../control-plane/move-in';
import { newToken, publicRecord, type StoredToken } from '../control-plane/tokens';
import type { HistoryEntry } from '../deploy/history';
import { deployDirWith, deployOf, manifestJson, startStores } from './control-plane-helpers';
import { freshDatabase } from './test-postgres';

jest.setTimeout(60_000);

/** A reason as odd as a team may write one: line and paragraph separators, emoji, RTL marks. */
const ODD_REASON =
  'roll back\u2028twice\u2029then 🚀 👩🏽‍💻 \u200fعاجل\u200e \u202eevil\u202c \uFEFF end';

/**
 * A deploy folder as an earlier `npm start` left it, written in the file store's own formats:
 * remotes.json (the live manifest), history.jsonl (one JSON line per change), group-tokens.json
 * (`{ tokens }`, digests only) and canary-counts.json (`{ counts, reports, decisions }`). Two
 * deploys and a rollback whose reason is `ODD_REASON`, a team token and a revoked one, canary
 * counts with a token report.
 */
function earlierRun() {
  const dir = deployDirWith(manifestJson('1.0.0'));
  const history: HistoryEntry[] = [];
  let current: LiveManifest = live(readFileSync(path.join(dir, 'remotes.json'), 'utf8'));
  const change = (version: string, draft: HistoryDraft) => {
    current = live(manifestText(manifestJson(version)));
    history.push({ ...draft, manifestVersion: current.version });
  };
  change('1.1.0', deployOf(current, '1.1.0'));
  change('1.2.0', deployOf(current, '1.2.0'));
  change('1.1.0', { ...deployOf(current, '1.1.0'), action: 'rollback', reason: ODD_REASON });
  writeFileSync(path.join(dir, 'remotes.json'), current.text);
  // JSON.stringify leaves U+2028 and U+2029 as they are: the line holds them raw.
  writeFileSync(
    path.join(dir, 'history.jsonl'),
    history.map((entry) => `${JSON.stringify(entry)}\n`).join(''),
  );

  const made = newToken();
  const ended = newToken();
  const tokens: StoredToken[] = [
    { id: made.id, groups: ['data'], createdAt: '2026-11-01T10:00:00.000Z', digest: made.digest },
    {
      id: ended.id,
      groups: ['custom_dev'],
      createdAt: '2026-11-01T10:01:00.000Z',
      revokedAt: '2026-11-02T09:00:00.000Z',
      digest: ended.digest,
    },
  ];
  writeFileSync(path.join(dir, 'group-tokens.json'), `${JSON.stringify({ tokens }, null, 2)}\n`);

  const second = Math.floor(Date.now() / 1000);
  // Seven views, one failed, and one more error by a token report (counted in the row too).
  const counts: CountRow[] = [{ group: 'data', version: '1.1.0', second, views: 7, errors: 2 }];
  writeFileSync(
    path.join(dir, 'canary-counts.json'),
    JSON.stringify({ counts, reports: [['n-1', Date.now() + 60_000]], decisions: [] }),
  );
  return {
    dir,
    live: current,
    history,
    token: made.token,
    revoked: publicRecord(tokens[1]!),
    second,
  };
}

test('the first start on a database takes the files whole; the next start finds nothing to move', async () => {
  const before = earlierRun();
  const url = await freshDatabase();

  const { stores, logs, close } = await startStores(url, before.dir, 1);
  const [plane] = stores;
  try {
    expect(plane!.peek()?.version).toBe(before.live.version);
    expect(await plane!.history()).toEqual(before.history);
    expect(before.history.map((e) => e.to.version)).toEqual(['1.1.0', '1.2.0', '1.1.0']);
    expect((await plane!.history('data')).at(-1)?.reason).toBe(ODD_REASON);
    expect((await plane!.tokens.verify(before.token))?.groups).toEqual(['data']);
    expect((await plane!.tokens.list()).find((t) => t.id === before.revoked.id)).toEqual(
      expect.objectContaining({ revokedAt: expect.any(String) as unknown }),
    );
    const counts = new PostgresCountStore(url);
    expect(await counts.sum('data', '1.1.0', before.second - 10)).toEqual({ views: 7, errors: 2 });
    await counts.close();
    expect(logs.join('\n')).toMatch(
      /moved the file store of .* into PostgreSQL: manifest \w+, 3 history entries, 2 deploy tokens, 1 canary count rows/,
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
  const before = earlierRun();
  const url = await freshDatabase();
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
  const before = earlierRun();
  const url = await freshDatabase();
  const tokens = path.join(before.dir, 'group-tokens.json');
  writeFileSync(tokens, '{"tokens": [');
  await expect(startStores(url, before.dir, 1)).rejects.toThrow(
    /group-tokens\.json is not valid JSON .*mend it or move it out of the deploy folder/,
  );
  expect(existsSync(path.join(before.dir, 'history.jsonl'))).toBe(true);
});
