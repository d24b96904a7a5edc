/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createSite, type Site } from '../site';
import { parseSiteSettings } from '../settings';
import {
  Bucket,
  GRANTS,
  OPERATOR,
  SHELL_DIST,
  call,
  deployDirWith,
} from './deploy-credentials-helpers';
import { address, canaries, flood, report, startCanary, until, visit } from './canary-helpers';
import { freshDatabase } from './test-postgres';

/**
 * One judgment for the whole site: three real site servers (the real shell build, real render
 * processes) on one database of the run's PostgreSQL, judging every 300 ms. Views are served by one
 * replica and reported to another; the replica holding the judging lease is closed midway, and
 * another takes the judgment over from the counts in the database. Then, on the two left, a healthy
 * canary is stepped and promoted and an inconclusive one holds.
 */
jest.setTimeout(240_000);

const INTERVAL_MS = 300;
let work: string;
let bucket: Bucket;
let databaseUrl: string;
let sites: Site[] = [];
let db: pg.Client;

const startReplica = (deployDir: string) =>
  createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: databaseUrl,
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: 'http://localhost',
      RENDER_WORKERS: '1',
      GROUP_RENDER_WORKERS: '1',
      DEPLOY_TOKEN: OPERATOR,
      DEPLOY_ALLOWED_ORIGINS: bucket.origin,
      TRUST_PROXY: 'loopback',
    }),
    { processMetrics: false, grants: GRANTS, canaryIntervalMs: INTERVAL_MS, log: () => undefined },
  );

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  work = mkdtempSync(path.join(os.tmpdir(), 'site-canary-replicas-'));
  bucket = new Bucket(path.join(work, 'bucket'));
  await bucket.listen();
  for (const version of ['1.0.0', '1.1.0', '1.2.0']) bucket.version('alpha', version);
  for (const version of ['1.0.0', '1.1.0']) bucket.version('beta', version);
  const deployDir = deployDirWith(path.join(work, 'deploy'), [
    bucket.remote('alpha'),
    bucket.remote('beta'),
  ]);
  sites = [];
  for (let i = 0; i < 3; i++) sites.push(await startReplica(deployDir));
  // Started: their judges tick.
  await Promise.all(sites.map((s) => s.app.ready()));
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
}, 240_000);

afterAll(async () => {
  await db?.end();
  await Promise.all((sites ?? []).map((s) => s.close().catch(() => undefined)));
  await bucket?.close();
  rmSync(work, { recursive: true, force: true });
});

const canaryOf = async (site: Site) =>
  (await site.manifest()).canaries.find((c) => c.remote.name === 'alpha');

describe('a canary judged across three replicas sharing PostgreSQL', () => {
  test('floods move nothing; a canary failing for its cohort, its views spread over the replicas, is rolled back once it has its views, though the judging replica is gone midway', async () => {
    const [one] = sites as [Site, Site, Site];
    await startCanary(one, bucket, 'alpha', '1.1.0', 50, {
      minViews: 60,
      maxErrorRate: 0.05,
      windowSeconds: 300,
    });
    for (const site of sites) await until(() => canaryOf(site), 5000, 'canary seen everywhere');
    const target = { group: 'alpha', version: '1.1.0' };

    // One genuine view of the canary, its token replayed to every replica with the flood.
    let genuine = await visit(one, '/alpha/page', '192.0.2.9');
    while (genuine.version !== '1.1.0') genuine = await visit(one, '/alpha/page', '192.0.2.9');
    for (const [i, site] of sites.entries()) {
      const statuses = await flood(site, target, 1000, genuine.cookieHeader, i * 1000);
      expect(Object.fromEntries(statuses)).toEqual({ 204: 1000 });
    }
    // The judge has looked at it since, and it holds.
    const flooded = Date.now();
    const held = await until(
      async () => {
        const c = (await canaries(one)).canaries[0];
        return c?.decision && Date.parse(c.decision.at) > flooded ? c : undefined;
      },
      10_000,
      'judged after the flood',
    );
    expect(held.decision?.outcome).toBe('inconclusive');
    expect(held.canary.errors).toBeLessThanOrEqual(1);
    for (const site of sites) expect(await canaryOf(site)).toBeDefined();

    // Genuine visitors, each served by one replica and reporting to the next; the flood goes on.
    const live = [...sites];
    let canaryViews = 0;
    let killed = false;
    let n = 0;
    const rolledBack = await until(
      async () => {
        for (let k = 0; k < 10; k++, n++) {
          const server = live[n % live.length]!;
          const reporter = live[(n + 1) % live.length]!;
          const seen = await visit(server, '/alpha/page', address(5_000_000 + n));
          if (seen.version === '1.1.0') {
            canaryViews += 1;
            expect(await report(reporter, target, address(5_000_000 + n), seen.cookieHeader)).toBe(
              204,
            );
          }
        }
        await flood(live[n % live.length]!, target, 40, genuine.cookieHeader, 100_000 + n * 40);
        if (!killed && canaryViews >= 30) {
          // The replica judging now goes away for good, its lease left to expire.
          const { rows } = await db.query<{ holder: string }>('SELECT holder FROM canary_judge');
          const judging = live.findIndex((s) => s.app.canaryJudge.holder === rows[0]?.holder);
          expect(judging).toBeGreaterThanOrEqual(0);
          const [gone] = live.splice(judging, 1);
          await gone!.close();
          killed = true;
        }
        return (await canaryOf(live[0]!)) === undefined;
      },
      120_000,
      'rolled back',
    );
    expect(rolledBack).toBe(true);
    expect(killed).toBe(true);
    const history = (await call(live[0]!, 'GET', '/history?remote=alpha', OPERATOR)).body
      .history as { by: string; action: string; reason: string; from: { version: string } }[];
    const rollback = history.at(-1)!;
    expect(rollback).toMatchObject({ by: 'site', action: 'rollback', from: { version: '1.1.0' } });
    const [, failed, views] = /canary (\d+) failed of (\d+) views/.exec(rollback.reason)!;
    expect(Number(views)).toBeGreaterThanOrEqual(60);
    // The flood's thousands of reports are not among them: at most one per genuine view.
    expect(Number(failed)).toBeLessThanOrEqual(Number(views));
    console.log(
      `replicas: rolled back after ${canaryViews} canary views seen (${rollback.reason})`,
    );
    for (const site of live) await until(async () => !(await canaryOf(site)), 5000, 'seen');
    sites = live;
  });

  test('a healthy canary with steps, its views spread over the replicas, reaches 100 % and is promoted; an inconclusive one holds', async () => {
    const [one, two] = sites as [Site, Site];
    await startCanary(one, bucket, 'alpha', '1.2.0', 20, {
      minViews: 10,
      maxErrorRate: 0.2,
      steps: [40, 100],
      intervalSeconds: 1,
    });
    await startCanary(one, bucket, 'beta', '1.1.0', 50, { minViews: 100_000 });
    let n = 0;
    const shares = new Set<number>();
    await until(
      async () => {
        for (let k = 0; k < 20; k++, n++) {
          await visit(sites[n % 2]!, '/alpha/page', address(8_000_000 + n));
          await visit(sites[(n + 1) % 2]!, '/beta/page', address(8_000_000 + n));
        }
        const now = await one.manifest();
        const alpha = now.canaries.find((c) => c.remote.name === 'alpha');
        if (alpha) shares.add(alpha.percent);
        return !alpha && now.manifest.remotes.find((r) => r.name === 'alpha')?.version === '1.2.0';
      },
      60_000,
      'promoted',
    );
    expect([...shares]).toContain(40);
    const history = (await call(two, 'GET', '/history?remote=alpha', OPERATOR)).body.history as {
      by: string;
      action: string;
      reason: string;
    }[];
    expect(history.slice(-2).map((e) => [e.by, e.action, e.reason.split(':')[0]])).toEqual([
      ['site', 'canary', 'canary raised to 40% of visits'],
      ['site', 'deploy', 'promoted'],
    ]);
    const beta = (await canaries(two)).canaries.find((c) => c.group === 'beta')!;
    expect(beta).toMatchObject({ percent: 50, decision: { outcome: 'inconclusive' } });
    expect(beta.canary.views + beta.stable.views).toBeGreaterThan(0);
  });
});
