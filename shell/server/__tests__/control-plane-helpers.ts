/**
 * What the control-plane tests share: a deploy folder holding a manifest, a change as the deployer
 * makes it, and replicas' control planes on one database (each test takes a database of its own
 * on the run's PostgreSQL: test-postgres.ts).
 */
import { lineLogger } from '../http/logger';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testManifest, testRemote } from '@site/build/testing/manifest';
import type { HistoryDraft, LiveManifest } from '../control-plane';
import { PostgresControlPlane } from '../control-plane/postgres';

export const ORIGIN = 'https://cdn.example.com';

/** The manifest with `data` at `version` (its entry under `origin`) beside `custom_dev` at 1.0.0. */
export function manifestJson(version = '1.0.0', origin = ORIGIN): Record<string, unknown> {
  const data = testRemote('data', `${origin}/data`, '/services/data', ['/services/data/x']);
  return testManifest([
    testRemote('custom_dev', `${ORIGIN}/custom-dev`, '/services/custom-dev', [
      '/services/custom-dev/a',
    ]),
    { ...data, version, entry: `${origin}/data/${version}/remoteEntry.js` },
  ]);
}

/** Deploy folders made by deployDirWith in this test file: removed once its tests are done. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A deploy folder whose remotes.json is `json`, written as a team's hand would. */
export function deployDirWith(json: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'control-plane-'));
  made.push(dir);
  writeFileSync(path.join(dir, 'remotes.json'), `${JSON.stringify(json, null, 2)}\n`);
  return dir;
}

/** The history entry of a deploy of `data` from the version live in `before`. */
export function deployOf(before: LiveManifest, version: string, origin = ORIGIN): HistoryDraft {
  const from = before.manifest.remotes.find((r) => r.name === 'data');
  return {
    at: new Date().toISOString(),
    by: 'data-team',
    action: 'deploy',
    remote: 'data',
    from: from ? { version: from.version, entry: from.entry } : null,
    to: { version, entry: `${origin}/data/${version}/remoteEntry.js` },
    reason: `deploy ${version}`,
  };
}

/**
 * Deploys `data` at `version` through `store` on the manifest it serves now; resolves with that
 * manifest and the one made live.
 */
export async function deployNext(
  store: PostgresControlPlane,
  version: string,
): Promise<{ before: LiveManifest; after: LiveManifest }> {
  const before = await store.get();
  const after = await store.publish(
    manifestJson(version),
    before.version,
    deployOf(before, version),
  );
  return { before, after };
}

export interface Stores {
  stores: PostgresControlPlane[];
  logs: string[];
  close(): Promise<void>;
}

/** `count` replicas' control planes on one database, started together. */
export async function startStores(
  url: string,
  deployDir: string,
  count: number,
  options: { pollMs?: number } = {},
): Promise<Stores> {
  const logs: string[] = [];
  const stores = Array.from(
    { length: count },
    (_, i) =>
      new PostgresControlPlane({
        url,
        deployDir,
        log: lineLogger((message) => logs.push(`${i + 1}: ${message}`)),
        ...options,
      }),
  );
  await Promise.all(stores.map((s) => s.start()));
  return {
    stores,
    logs,
    close: async () => void (await Promise.all(stores.map((s) => s.close()))),
  };
}

/**
 * How long a test waits for a change to reach the other replicas by notification: a second is
 * what the docs promise and the benchmark measures; a busy machine gets three, still well under the
 * 5 s poll, so a notification that never arrives fails the test.
 */
export const NOTIFIED_MS = 3000;

/** Resolves to how long it took until `seen()` held, in milliseconds; rejects after `limitMs`. */
export async function timeUntil(seen: () => boolean, limitMs: number): Promise<number> {
  const started = performance.now();
  while (!seen()) {
    if (performance.now() - started > limitMs) {
      throw new Error(`not seen within ${limitMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}
