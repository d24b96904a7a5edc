/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Site } from '../site';
import {
  Bucket,
  OPERATOR,
  base,
  call,
  deployDirWith,
  groupToken,
  startSite,
} from './deploy-credentials-helpers';
import { startPostgres, type TestPostgres } from './test-postgres';

/**
 * Group tokens on replicas: two real sites (the real shell build, real render processes) on one
 * real PostgreSQL of this file's own (its last test stops it), on a port the system has free, as
 * is the bucket's; their deploy APIs called in-process. A token made, rotated or revoked through
 * one replica holds on the other from its next call.
 */
jest.setTimeout(120_000);

let postgres: TestPostgres;
let work: string;
let bucket: Bucket;
let databaseUrl: string;
let one: Site;
let two: Site;

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = postgres.url;
  work = mkdtempSync(path.join(os.tmpdir(), 'site-credentials-replicas-'));
  bucket = new Bucket(path.join(work, 'bucket'));
  await bucket.listen();
  for (const version of ['1.0.0', '1.1.0']) bucket.version('alpha', version);
  bucket.version('beta', '1.0.0');
  const deployDir = deployDirWith(path.join(work, 'deploy'), [
    bucket.remote('alpha'),
    bucket.remote('beta'),
  ]);
  [one, two] = await Promise.all([
    startSite(deployDir, bucket.origin, databaseUrl),
    startSite(deployDir, bucket.origin, databaseUrl),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  await bucket?.close();
  await postgres?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Milliseconds until `site` answers `token`'s call with `status`; fails after `limitMs`. */
async function until(site: Site, token: string, status: number, limitMs = 1000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await call(site, 'GET', '/manifest', token);
    if (answer.status === status) return performance.now() - started;
    if (performance.now() - started > limitMs) {
      throw new Error(`still HTTP ${answer.status} after ${limitMs} ms`);
    }
  }
}

describe('group tokens on replicas', () => {
  test('a token made through one replica deploys through the other; revoked, it is refused on both within a second', async () => {
    const token = await groupToken(one, 'alpha');
    const id = /^gdt_([0-9a-f]{12})_/.exec(token)![1];
    const deployed = await call(two, 'PUT', '/remotes/alpha', token, {
      base: await base(two),
      entry: bucket.entry('alpha', '1.1.0'),
      version: '1.1.0',
      by: 'alpha-ci',
    });
    expect(deployed.status).toBe(200);

    const revoked = await call(one, 'POST', `/tokens/${id}/revoke`, OPERATOR);
    expect(revoked.status).toBe(200);
    const refusedAfter = await until(two, token, 401);
    console.log(
      `replicas: a token revoked through replica 1 was refused by replica 2 after ${refusedAfter.toFixed(1)} ms`,
    );
    expect((await call(one, 'GET', '/manifest', token)).status).toBe(401);
    const rollback = await call(two, 'POST', '/remotes/alpha/rollback', token, {
      base: await base(two),
    });
    expect(rollback.status).toBe(401);

    // The history, kept in PostgreSQL, names the credential and never the token.
    const history = (await call(one, 'GET', '/history?remote=alpha', OPERATOR)).body.history as {
      action: string;
      by: string;
      credential: string;
    }[];
    expect(history.map((e) => [e.action, e.by, e.credential])).toEqual([
      ['seed', 'site', 'site'],
      ['deploy', 'alpha-ci', `group:alpha#${id}`],
    ]);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ dump: string }>(
        `SELECT (SELECT json_agg(t) FROM deploy_tokens t)::text || (SELECT json_agg(h) FROM manifest_history h)::text AS dump`,
      );
      expect(rows[0]!.dump).toContain(id);
      expect(rows[0]!.dump).not.toContain(token.slice(`gdt_${id}_`.length));
    } finally {
      await client.end();
    }
  });

  test('a token rotated through one replica: its old secret is refused and its new one accepted on the other within a second', async () => {
    const old = await groupToken(two, 'beta');
    const id = /^gdt_([0-9a-f]{12})_/.exec(old)![1];
    expect((await call(one, 'GET', '/manifest', old)).status).toBe(200);
    const rotated = await call(two, 'POST', `/tokens/${id}/rotate`, OPERATOR, {});
    expect(rotated.status).toBe(200);
    const next = rotated.body.token as string;
    await until(one, old, 401);
    await until(one, next, 200);
    // Listed the same on both replicas.
    const listed = async (site: Site) =>
      (await call(site, 'GET', '/tokens', OPERATOR)).body.tokens as unknown[];
    expect(await listed(one)).toEqual(await listed(two));
  });

  test('while the database is down a group token cannot be checked: 503 with the reason; the operator still reads the manifest, marked unconfirmed', async () => {
    const token = await groupToken(one, 'alpha');
    await postgres.pause();
    try {
      const answer = await call(one, 'GET', '/manifest', token);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe('control_plane_unavailable');
      expect(String(answer.body.message)).toMatch(
        /^the control-plane database is unreachable: .*; the deploy token cannot be checked$/,
      );
      // The manifest this server serves, marked as not confirmed by the database.
      const served = await call(one, 'GET', '/manifest', OPERATOR);
      expect(served.status).toBe(200);
      expect(served.body.version).toBe((await one.manifest()).version);
      expect(String(served.body.unconfirmed)).toMatch(
        /^the control-plane database is unreachable: this is the manifest this server serves/,
      );
    } finally {
      await postgres.resume();
    }
    await until(one, token, 200, 15_000);
    expect((await call(one, 'GET', '/manifest', OPERATOR)).body).not.toHaveProperty('unconfirmed');
  });
});
