/**
 * What the control-plane tests share: a database of its own per test on one PostgreSQL, a deploy
 * folder holding a manifest, and a change as the deployer makes it.
 */
import { lineLogger } from '../http/logger';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { testManifest, testRemote } from '@site/build/testing/manifest';
import type { HistoryDraft, LiveManifest } from '../control-plane';
import { PostgresControlPlane } from '../control-plane/postgres';

export interface TestPostgres {
  url: string;
  /** Stops the server, keeping its data; `resume()` starts it again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `startPostgres` of @site/build/testing/postgres, run in a process of its own
 * (control-plane-postgres.ts says why): a real PostgreSQL on `port`.
 */
export function startPostgres({ port }: { port: number }): Promise<TestPostgres> {
  const child = fork(path.join(__dirname, 'control-plane-postgres.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reply = <T>(what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`PostgreSQL's process ended (${code}) before ${what}`));
      child.once('exit', onExit);
      child.once('message', (message: T) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const command = async (name: 'pause' | 'resume') => {
    const done = reply<{ done?: string; error?: string }>(name);
    child.send(name);
    const answer = await done;
    if (answer.done !== name) throw new Error(`PostgreSQL could not ${name}: ${answer.error}`);
  };
  return reply<{ url: string }>('it started').then(({ url }) => ({
    url,
    pause: () => command('pause'),
    resume: () => command('resume'),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  }));
}

let databases = 0;

/** A new, empty database on the server at `url`; resolves to its URL. */
export async function freshDatabase(url: string): Promise<string> {
  const name = `cp_${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.href;
}

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
