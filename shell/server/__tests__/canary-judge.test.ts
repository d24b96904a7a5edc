/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import {
  BROWSER,
  NAVIGATION,
  address,
  canaries,
  flood,
  report,
  startCanary,
  until,
  visit,
} from './canary-helpers';
import { freshDatabase } from './test-postgres';

/**
 * A canary judged on one site server (the real shell build, real render processes, its control
 * plane in a database of the run's PostgreSQL; the bucket on a port the system has free), driven
 * in-process: views the site counts, reports that count only with the view's
 * token, and the judge's ticks called by the test instead of waited for.
 */
jest.setTimeout(180_000);

const RATE_LIMIT = 30;
let work: string;
let bucket: Bucket;
let site: Site;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'site-canary-judge-'));
  bucket = new Bucket(path.join(work, 'bucket'));
  await bucket.listen();
  for (const version of ['1.0.0', '1.1.0', '1.2.0', '1.3.0']) bucket.version('alpha', version);
  for (const version of ['1.0.0', '1.1.0', '1.2.0']) bucket.version('beta', version);
  site = await createSite(
    parseSiteSettings({
      SHELL_DIST,
      DEPLOY_DIR: deployDirWith(path.join(work, 'deploy'), [
        bucket.remote('alpha'),
        bucket.remote('beta'),
      ]),
      DATABASE_URL: await freshDatabase(),
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      SITE_URL: 'http://localhost',
      RENDER_WORKERS: '1',
      DEPLOY_TOKEN: OPERATOR,
      DEPLOY_ALLOWED_ORIGINS: bucket.origin,
      TRUST_PROXY: 'loopback',
      BEACON_RATE_LIMIT: String(RATE_LIMIT),
    }),
    // The test ticks the judge itself.
    { processMetrics: false, grants: GRANTS, canaryIntervalMs: 3_600_000, log: () => undefined },
  );
}, 180_000);

afterAll(async () => {
  await site?.close();
  await bucket?.close();
  rmSync(work, { recursive: true, force: true });
});

const live = async (group: string) => {
  const manifest = await site.manifest();
  return {
    version: manifest.manifest.remotes.find((r) => r.name === group)?.version,
    canary: manifest.canaries.find((c) => c.remote.name === group),
  };
};

describe('a canary judged on one site server', () => {
  test("the deploy API checks a canary's plan with the command's schema, before anything goes live", async () => {
    const before = (await call(site, 'GET', '/manifest', OPERATOR)).body.version as string;
    const put = (body: Record<string, unknown>) =>
      call(site, 'PUT', '/remotes/alpha', OPERATOR, {
        base: before,
        entry: bucket.entry('alpha', '1.1.0'),
        version: '1.1.0',
        ...body,
      });
    for (const [body, message] of [
      [{ canary: 10, plan: { steps: [25, 75, 100], intervalSeconds: 60 } }, /at most 50 %/],
      [{ canary: 10, plan: { steps: [25, 50, 100] } }, /interval/],
      [{ canary: 30, plan: { steps: [25, 50, 100], intervalSeconds: 60 } }, /above/],
      [{ canary: 10, plan: { maxErrorRate: 2 } }, /maxErrorRate/],
      [{ canary: 10, plan: { minViews: 10, other: 1 } }, /other/],
      [{ plan: { minViews: 10 } }, /for a canary/],
    ] as const) {
      const refused = await put(body);
      expect([refused.status, refused.body.error]).toEqual([400, 'bad_field']);
      expect(refused.body.message).toMatch(message);
    }
    expect((await call(site, 'GET', '/manifest', OPERATOR)).body.version).toBe(before);
  });

  test('forged, replayed and token-less reports by the thousand move nothing; a canary failing for its cohort is rolled back once it has its views, with its figures', async () => {
    await startCanary(site, bucket, 'alpha', '1.1.0', 50, {
      minViews: 30,
      maxErrorRate: 0.05,
      windowSeconds: 300,
    });
    const target = { group: 'alpha', version: '1.1.0' };
    // One genuine view of the canary, its token then replayed by the thousand.
    let genuine = await visit(site, '/alpha/page', address(1_000_000));
    while (genuine.version !== '1.1.0') genuine = await visit(site, '/alpha/page', '192.0.2.9');
    expect(await report(site, target, '192.0.2.9', genuine.cookieHeader)).toBe(204);

    // From 10,000 addresses, as many as the limiter's table holds: genuine reports come after.
    const statuses = await flood(site, target, 10_000, genuine.cookieHeader);
    // Every one answered as a counted report would be: the sender learns nothing.
    expect(Object.fromEntries(statuses)).toEqual({ 204: 10_000 });
    expect(await site.app.canaryJudge.tick()).toBe(true);
    expect((await live('alpha')).canary?.remote.version).toBe('1.1.0');
    const status = (await canaries(site)).canaries[0]!;
    expect(status.canary.errors).toBeLessThanOrEqual(1);
    expect(status.decision?.outcome).toBe('inconclusive');
    const metrics = await site.metrics.metrics();
    const refused = (reason: string) =>
      Number(
        new RegExp(`site_beacons_refused_total\\{reason="${reason}"\\} (\\d+)`).exec(metrics)?.[1],
      );
    // Without a token, or with a forged one (alone, or with a cohort set by hand): no valid token.
    expect(refused('no_token')).toBe(7500);
    expect(refused('replayed')).toBe(2500);

    // Genuine visitors: the canary's pages fail in their browsers, while the flood goes on.
    let canaryViews = 0;
    for (let i = 0; canaryViews < 40; i++) {
      const seen = await visit(site, '/alpha/page', address(2_000_000 + i));
      expect(seen.status).toBe(200);
      if (seen.version === '1.1.0') {
        canaryViews += 1;
        expect(await report(site, target, address(2_000_000 + i), seen.cookieHeader)).toBe(204);
      }
      if (i % 10 === 0) await flood(site, target, 100, genuine.cookieHeader, 20_000 + i * 100);
    }
    await site.app.canaryJudge.tick();
    const after = await live('alpha');
    expect(after.canary).toBeUndefined();
    expect(after.version).toBe('1.0.0');
    const history = (await call(site, 'GET', '/history?remote=alpha', OPERATOR)).body.history as {
      by: string;
      action: string;
      reason: string;
      from: { version: string };
    }[];
    const rollback = history.at(-1)!;
    expect(rollback).toMatchObject({ by: 'site', action: 'rollback', from: { version: '1.1.0' } });
    expect(rollback.reason).toMatch(/^automatic rollback: canary 4\d failed of 4\d views/);
    const ended = (await canaries(site)).ended.find((d) => d.group === 'alpha');
    expect(ended).toMatchObject({ version: '1.1.0', outcome: 'failing' });
  });

  test('reports without a token are limited per IPv6 /64; a genuine one is never limited', async () => {
    await startCanary(site, bucket, 'beta', '1.1.0', 50, { minViews: 1000 });
    const target = { group: 'beta', version: '1.1.0' };
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push(await report(site, target, `2001:db8:77:1:${i.toString(16)}::9`));
    }
    expect(statuses.filter((s) => s === 204)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - RATE_LIMIT);
    // From the same /64, a visitor with its view's token is counted.
    let seen = await visit(site, '/beta/page', '2001:db8:77:1:ff::1');
    while (seen.version !== '1.1.0') seen = await visit(site, '/beta/page', '2001:db8:77:1:ff::1');
    expect(await report(site, target, '2001:db8:77:1:ff::1', seen.cookieHeader)).toBe(204);
    await site.app.canaryJudge.tick();
    const status = (await canaries(site)).canaries.find((c) => c.group === 'beta')!;
    expect(status.canary.errors).toBe(1);
  });

  test('an inconclusive canary holds at its share', async () => {
    // beta's canary (above) needs 1000 views: a few failing ones decide nothing.
    for (let i = 0; i < 20; i++) {
      const seen = await visit(site, '/beta/page', address(3_000_000 + i));
      if (seen.version === '1.1.0') {
        await report(
          site,
          { group: 'beta', version: '1.1.0' },
          address(3_000_000 + i),
          seen.cookieHeader,
        );
      }
    }
    await site.app.canaryJudge.tick();
    const status = (await canaries(site)).canaries.find((c) => c.group === 'beta')!;
    expect(status.percent).toBe(50);
    expect(status.decision).toMatchObject({
      outcome: 'inconclusive',
      reason: expect.stringContaining('fewer than 1000 views'),
    });
    expect((await live('beta')).canary?.percent).toBe(50);
    // The same figures in the site's metrics.
    const metrics = await site.metrics.metrics();
    expect(metrics).toContain('site_canary_percent{group="beta",version="1.1.0"} 50');
    expect(metrics).toContain(
      `site_canary_views{group="beta",version="1.1.0",role="canary"} ${status.canary.views}`,
    );
    expect(metrics).toContain(
      `site_canary_errors{group="beta",version="1.1.0",role="canary"} ${status.canary.errors}`,
    );
    expect(metrics).toContain(
      `site_canary_views{group="beta",version="1.0.0",role="stable"} ${status.stable.views}`,
    );
    expect(metrics).toContain(
      'site_canary_decision{group="beta",version="1.1.0",outcome="inconclusive"} 1',
    );
  });

  test('a healthy canary with steps is raised step by step and promoted, with nobody at the keyboard', async () => {
    await startCanary(site, bucket, 'alpha', '1.2.0', 20, {
      minViews: 10,
      maxErrorRate: 0.2,
      steps: [30, 50, 100],
      intervalSeconds: 1,
    });
    const shares: number[] = [];
    let n = 0;
    await until(
      async () => {
        for (let i = 0; i < 40; i++) await visit(site, '/alpha/page', address(4_000_000 + n++));
        await site.app.canaryJudge.tick();
        const now = await live('alpha');
        if (now.canary && shares.at(-1) !== now.canary.percent) shares.push(now.canary.percent);
        return now.version === '1.2.0' && !now.canary;
      },
      60_000,
      'promoted',
    );
    expect(shares[0]).toBe(20);
    expect(shares.slice(1)).toEqual([30, 50]);
    const history = (await call(site, 'GET', '/history?remote=alpha', OPERATOR)).body.history as {
      by: string;
      action: string;
      reason: string;
    }[];
    expect(history.slice(-3).map((e) => [e.by, e.action, e.reason.split(':')[0]])).toEqual([
      ['site', 'canary', 'canary raised to 30% of visits'],
      ['site', 'canary', 'canary raised to 50% of visits'],
      ['site', 'deploy', 'promoted'],
    ]);
  });

  test('canaries released together (--with) are judged together: one failing rolls both back', async () => {
    const started = await call(site, 'POST', '/releases', OPERATOR, {
      base: (await call(site, 'GET', '/manifest', OPERATOR)).body.version,
      entries: [
        { name: 'alpha', entry: bucket.entry('alpha', '1.3.0'), version: '1.3.0' },
        { name: 'beta', entry: bucket.entry('beta', '1.2.0'), version: '1.2.0' },
      ],
      canary: 50,
      plan: { minViews: 20, maxErrorRate: 0.05 },
    });
    expect(started.status).toBe(200);
    const release = started.body.release as string;
    const status = (await canaries(site)).canaries.find((c) => c.group === 'alpha')!;
    expect(status).toMatchObject({ version: '1.3.0', percent: 50, with: ['beta'] });
    // alpha fails for its canary's visitors; beta is fine.
    let failed = 0;
    for (let i = 0; failed < 30; i++) {
      const a = await visit(site, '/alpha/page', address(6_000_000 + i));
      if (a.version === '1.3.0') {
        failed += 1;
        await report(
          site,
          { group: 'alpha', version: '1.3.0' },
          address(6_000_000 + i),
          a.cookieHeader,
        );
      }
      await visit(site, '/beta/page', address(7_000_000 + i));
    }
    await site.app.canaryJudge.tick();
    expect((await live('alpha')).canary).toBeUndefined();
    expect((await live('beta')).canary).toBeUndefined();
    expect([(await live('alpha')).version, (await live('beta')).version]).toEqual([
      '1.2.0',
      '1.0.0',
    ]);
    const history = (await call(site, 'GET', '/history', OPERATOR)).body.history as {
      remote: string;
      action: string;
      release?: string;
      reason: string;
    }[];
    const last = history.slice(-2);
    expect(last.map((e) => [e.remote, e.action, e.release])).toEqual([
      ['alpha', 'rollback', release],
      ['beta', 'rollback', release],
    ]);
    expect(last[0]!.reason).toMatch(
      /^automatic rollback: alpha: canary \d+ failed of \d+ views.*; beta with it$/,
    );
  });

  test("a preview's pages are no views of a canary and carry no token", async () => {
    await startCanary(site, bucket, 'alpha', '1.3.0', 50, { minViews: 1000 });
    const previewed = await call(site, 'PUT', '/remotes/alpha', OPERATOR, {
      base: (await call(site, 'GET', '/manifest', OPERATOR)).body.version,
      entry: bucket.entry('alpha', '1.1.0'),
      version: '1.1.0',
      preview: true,
    });
    expect(previewed.status).toBe(200);
    const link = new URL((previewed.body.preview as { url: string }).url);
    const opened = await site.app.inject({
      url: link.pathname,
      headers: { 'user-agent': BROWSER },
    });
    const previewCookie = ([] as string[])
      .concat(opened.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const placed = await visit(site, '/alpha/page', '192.0.2.77');
    await site.app.canaryJudge.tick();
    const before = (await canaries(site)).canaries.find((c) => c.group === 'alpha')!;
    for (let i = 0; i < 20; i++) {
      const answer = await site.app.inject({
        url: '/alpha/page',
        headers: {
          'user-agent': BROWSER,
          ...NAVIGATION,
          cookie: `${previewCookie}; site_cohort=${placed.cookies.site_cohort}`,
        },
      });
      expect(answer.statusCode).toBe(200);
      expect(String(answer.headers['set-cookie'] ?? '')).not.toContain('site_view');
    }
    await site.app.canaryJudge.tick();
    const after = (await canaries(site)).canaries.find((c) => c.group === 'alpha')!;
    expect([after.canary.views + after.stable.views]).toEqual([
      before.canary.views + before.stable.views,
    ]);
  });
});
