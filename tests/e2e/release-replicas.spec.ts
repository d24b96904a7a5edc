import path from 'node:path';
import { expect } from '@playwright/test';
import pg from 'pg';
import { SITE_REMOTES } from '@site/contracts/site';
import { startPostgres } from '@site/build/testing/postgres';
import { test } from '../support/deployment';
import { buildPublicHealthNext } from '../support/team-build';
import { ready } from '../support/ready';

/**
 * Release controls on replicas: two site servers on one PostgreSQL see a preview, a canary and the
 * canary's automatic rollback the same way, whichever of them made the change: a cohort one signs
 * is the other's too, and a canary failing in browsers whose pages come from both is rolled back
 * from their summed counts, even when the replica judging it is killed midway. Ports: the site servers 3134 and 3135, PostgreSQL 3136, the
 * public-health team's origin 3137.
 */
const TOKEN = 'release-replicas-token-0123456789';
const REPLICAS = ['http://localhost:3134', 'http://localhost:3135'] as const;
const ORIGIN = 'http://localhost:3137';
const PAGE = '/public-health/MandE-tools';
const STABLE = 'Tools we build and configure';
const NEXT = 'Tools we build, configure and support';

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
/** The automatic rollback's reason: the canary's figures against the stable version's, and why. */
const ROLLBACK =
  /^automatic rollback: canary (\d+) failed of (\d+) views \([\d.]+ %\), stable \d+ of \d+ \([\d.]+ %\) in \d+ s: at least [\d.]+ % failing, over the limit of [\d.]+ %$/;

const pageText = async (site: string, cookie: string) =>
  (await fetch(`${site}${PAGE}`, { headers: { cookie, 'user-agent': BROWSER_UA } })).text();
/** The version of public_health in the manifest a visitor with `cookie` navigates with. */
const versionSeen = async (site: string, cookie: string) =>
  (
    (await (
      await fetch(`${site}/remotes.json`, { headers: { cookie, 'user-agent': BROWSER_UA } })
    ).json()) as { remotes: { name: string; version: string }[] }
  ).remotes.find((r) => r.name === 'public_health')?.version;

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
  browser,
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
        // Judged every second (by whichever replica holds the lease), on 8 views at least.
        env: { DATABASE_URL: postgres.url, CANARY_MIN_VIEWS: '8', CANARY_JUDGE_SECONDS: '1' },
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

    // A canary started through one replica. New visitors of that replica are placed in cohorts it
    // signs; one of each version is kept.
    const canary = await deployApi(first, 'PUT', '/remotes/public_health', {
      base,
      ...next,
      canary: 20,
      by: 'public-health-ci',
    });
    expect(canary.status, JSON.stringify(canary.body)).toBe(200);
    const cohorts: { [version: string]: string } = {};
    for (let visits = 0; !cohorts['1.1.0'] || !cohorts['1.0.0']; visits++) {
      expect(visits, 'first visits before one of each version').toBeLessThan(100);
      const answer = await fetch(`${first}/remotes.json`, {
        headers: { 'user-agent': BROWSER_UA },
      });
      const cookie = answer.headers.getSetCookie()[0]?.split(';')[0] ?? '';
      expect(cookie).toMatch(/^site_cohort=\d{1,2}\.[\w-]{16}$/);
      cohorts[(await versionSeen(first, cookie))!] ??= cookie;
    }
    const [inCanary, inStable] = [cohorts['1.1.0']!, cohorts['1.0.0']!];
    // The other replica takes that cohort as its own as soon as it hears of the canary (within a
    // second, said the docs; three on a busy machine, under the 5 s poll): both agree on the
    // manifest the visitor navigates with, and on its pages.
    await expect
      .poll(() => Promise.all(REPLICAS.map((site) => versionSeen(site, inCanary))), {
        timeout: 3000,
        intervals: [50],
      })
      .toEqual(['1.1.0', '1.1.0']);
    for (const site of REPLICAS) {
      expect(await pageText(site, inCanary)).toContain(NEXT);
      expect(await pageText(site, inStable)).toContain(STABLE);
    }

    // A browser in the canary's cohort views its pages on one replica and the other in turn; they
    // throw, and the page's own reporter tells the replica that served it, with the view's token.
    // The replicas' counts are summed. Midway, once both have counted their failing views in the
    // database, the replica judging is killed (SIGKILL): the other takes the judgment over when its
    // lease runs out, and rolls the canary back from the sums, the dead replica's counts included.
    const context = await browser.newContext();
    await context.addCookies([
      {
        name: 'site_cohort',
        value: inCanary.slice('site_cohort='.length),
        url: first,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    const served = { [first]: 0, [second]: 0 };
    let killed: string | undefined;
    const alive = () => REPLICAS.filter((site) => site !== killed);
    const rolledBack = async () =>
      (
        (await deployApi(alive()[0]!, 'GET', '/history?remote=public_health')).body.history as {
          action: string;
        }[]
      ).at(-1)?.action === 'rollback';
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    const counted = async () =>
      Number(
        (
          await db.query<{ errors: string }>(
            `SELECT coalesce(sum(errors), 0) AS errors FROM canary_counts
              WHERE group_name = 'public_health' AND version = '1.1.0'`,
          )
        ).rows[0]!.errors,
      );
    const judge = async () =>
      (await db.query<{ holder: string }>('SELECT holder FROM canary_judge')).rows[0]?.holder;
    for (let view = 0; !(await rolledBack()); view++) {
      expect(view, 'failing views of the canary before its rollback').toBeLessThan(30);
      const site = alive()[view % alive().length]!;
      const page = await context.newPage();
      const beacons: string[] = [];
      page.on('requestfinished', (request) => {
        if (new URL(request.url()).pathname === '/_beacon') beacons.push(request.url());
      });
      await page.goto(`${site}${PAGE}`);
      await ready(page);
      // Rolled back meanwhile: this view is of the stable version.
      if (!(await page.getByRole('heading', { name: NEXT, exact: true }).isVisible())) break;
      await page.evaluate(() =>
        setTimeout(() => {
          throw new Error('the canary broke');
        }),
      );
      await expect.poll(() => beacons).toEqual([`${site}/_beacon`]);
      served[site] += 1;
      await page.close();
      if (!killed && served[first] >= 2 && served[second] >= 2) {
        await expect.poll(counted, { message: 'both replicas’ failing views counted' }).toBe(4);
        await expect.poll(judge, { message: 'a replica judging' }).toBeTruthy();
        const pid = Number((await judge())!.split('-')[0]);
        const index = deployment.children.findIndex((child) => child.pid === pid);
        expect(index, `the judge ${await judge()} is one of the two site servers`).toBeLessThan(2);
        killed = REPLICAS[index]!;
        process.kill(pid, 'SIGKILL');
        await expect
          .poll(() =>
            fetch(killed!).then(
              () => 'up',
              () => 'gone',
            ),
          )
          .toBe('gone');
      }
    }
    await context.close();
    await db.end();
    const survivor = alive()[0]!;
    expect(killed).toBeDefined();
    expect(served[first]).toBeGreaterThan(0);
    expect(served[second]).toBeGreaterThan(0);
    // The replica left serves the stable version to the canary's cohort.
    await expect.poll(() => pageText(survivor, inCanary), { timeout: 10_000 }).toContain(STABLE);
    const history = (await deployApi(survivor, 'GET', '/history?remote=public_health')).body
      .history as { action: string; by: string; reason: string }[];
    expect(history.slice(-2).map((e) => [e.action, e.by])).toEqual([
      ['canary', 'public-health-ci'],
      ['rollback', 'site'],
    ]);
    expect(history.at(-2)!.reason).toBe('canary 1.1.0 for 20% of visits');
    const [, failed, views] = ROLLBACK.exec(history.at(-1)!.reason)!;
    // Views served by both replicas, each failing one counted once, summed: more than the replica
    // left ever served, so the dead one's counts were in the judgment.
    expect(Number(failed)).toBeGreaterThan(served[survivor]);
    expect(Number(failed)).toBeLessThanOrEqual(served[first] + served[second]);
    expect(Number(views)).toBeGreaterThanOrEqual(Number(failed));
  } finally {
    await deployment.close();
    await postgres.stop();
  }
});
