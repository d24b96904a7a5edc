import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { startPostgres } from '@site/build/testing/postgres';
import { buildPublicHealthNext, test } from '../support/deployment';

/**
 * Release controls on replicas: two site servers on one PostgreSQL see a preview, a canary and the
 * canary's automatic rollback the same way, whichever of them made the change. Ports: the site
 * servers 3134 and 3135, PostgreSQL 3136, the public-health team's origin 3137.
 */
const TOKEN = 'release-replicas-token-0123456789';
const REPLICAS = ['http://localhost:3134', 'http://localhost:3135'] as const;
const ORIGIN = 'http://localhost:3137';
const PAGE = '/public-health/MandE-tools';
const STABLE = 'Tools we build and configure';
const NEXT = 'Tools we build, configure and support';

const pageText = async (site: string, cookie: string) =>
  (await fetch(`${site}${PAGE}`, { headers: { cookie } })).text();

async function deployApi(site: string, method: string, route: string, body?: unknown) {
  const answer = await fetch(`${site}/_deploy${route}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

test('a preview, a canary and its automatic rollback are the same on every replica', async ({
  deployment,
}) => {
  test.setTimeout(240_000);
  const postgres = await startPostgres({ port: 3136 });
  try {
    await deployment.writeManifest({});
    for (const site of REPLICAS) {
      await deployment.startSite(Number(new URL(site).port), {
        deploy: {
          token: TOKEN,
          allowedOrigins: [...SITE_REMOTES.map((r) => `http://localhost:${r.port}`), ORIGIN],
        },
        env: { DATABASE_URL: postgres.url, CANARY_ERROR_THRESHOLD: '3' },
      });
    }
    const work = await buildPublicHealthNext('release-replicas-public-health');
    await deployment.startRemote(path.join(work, 'dist'), 3137);
    const [first, second] = REPLICAS;
    const next = { entry: `${ORIGIN}/1.1.0/remoteEntry.js`, version: '1.1.0' };

    // A preview link signed by one replica shows the version on the other.
    const { version: base } = (await deployApi(first, 'GET', '/manifest')).body as {
      version: string;
    };
    const preview = await deployApi(first, 'PUT', '/remotes/public_health', {
      base,
      ...next,
      preview: true,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const link = new URL((preview.body.preview as { url: string }).url);
    const opened = await fetch(`${second}${link.pathname}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^site_preview=/);
    expect(await pageText(second, cookie)).toContain(NEXT);
    expect(await pageText(second, '')).toContain(STABLE);

    // A canary started through one replica: both place cohorts the same way, as soon as the other
    // hears of it (within a second, said the docs; three on a busy machine, under the 5 s poll).
    const canary = await deployApi(first, 'PUT', '/remotes/public_health', {
      base,
      ...next,
      canary: 20,
      by: 'public-health-ci',
    });
    expect(canary.status, JSON.stringify(canary.body)).toBe(200);
    await expect
      .poll(() => Promise.all(REPLICAS.map((site) => pageText(site, 'site_cohort=5'))), {
        timeout: 3000,
        intervals: [50],
      })
      .toEqual([expect.stringContaining(NEXT), expect.stringContaining(NEXT)]);
    for (const site of REPLICAS) {
      expect(await pageText(site, 'site_cohort=50')).toContain(STABLE);
    }

    // Browsers report the canary's errors to the second replica, which rolls it back; the first
    // serves the stable version to the canary's cohort at once.
    for (let i = 0; i < 3; i++) {
      const beacon = await fetch(`${second}/_beacon`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'page-error', group: 'public_health', version: '1.1.0' }),
      });
      expect(beacon.status).toBe(204);
    }
    await expect
      .poll(() => Promise.all(REPLICAS.map((site) => pageText(site, 'site_cohort=5'))), {
        timeout: 10_000,
      })
      .toEqual([expect.stringContaining(STABLE), expect.stringContaining(STABLE)]);
    const history = (await deployApi(first, 'GET', '/history?remote=public_health')).body
      .history as { action: string; by: string; reason: string }[];
    expect(history.slice(-2).map((e) => [e.action, e.by, e.reason])).toEqual([
      ['canary', 'public-health-ci', 'canary 1.1.0 for 20% of visits'],
      ['rollback', 'site', 'automatic rollback: 3 errors in 60 s'],
    ]);
  } finally {
    await deployment.close();
    await postgres.stop();
  }
});
