import path from 'node:path';
import { expect, type Browser, type BrowserContext } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { watchConsole } from '../support/console';
import { navigate } from '../support/navigate';
import { ready } from '../support/ready';
import { test } from '../support/deployment';
import { buildPublicHealthNext } from '../support/team-build';
import { groupToken, teamCommand } from '../support/team-commands';

/**
 * A canary: the public-health team's next version live for 10% of visits. Visitors are placed in
 * a cohort once and see one version for the whole visit; crawlers always get the stable one; a
 * canary whose pages throw in browsers is rolled back by the site, with no stable visitor harmed.
 * Ports: the site 3129, the team's origin 3132.
 */
const TOKEN = 'canary-deploy-token-0123456789';
const METRICS = 'canary-metrics-token-0123456789';
const SITE = 'http://localhost:3129';
const ORIGIN = 'http://localhost:3132';
const PAGE = '/public-health/MandE-tools';
const STABLE = 'Tools we build and configure';
const CANARY = 'Tools we build, configure and support';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const CRAWLER_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const deployApi = async (route: string) =>
  (
    await fetch(`${SITE}/_deploy${route}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
  ).json();
const history = async () =>
  ((await deployApi('/history?remote=public_health')) as { history: Record<string, unknown>[] })
    .history;
/** The automatic rollback's reason: the canary's figures against the stable version's, and why. */
const ROLLBACK =
  /^automatic rollback: canary (\d+) failed of (\d+) views \([\d.]+ %\), stable \d+ of \d+ \([\d.]+ %\) in 60 s: at least [\d.]+ % failing, over the limit of [\d.]+ %$/;

/** A browser holding the cohort the site signed for a first visit (its `site_cohort` cookie). */
async function withCohort(browser: Browser, cohort: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([
    { name: 'site_cohort', value: cohort, url: SITE, httpOnly: true, sameSite: 'Lax' },
  ]);
  return context;
}

test('a canary reaches its share of visits, stays with each visit, and is rolled back by the site when it fails in browsers', async ({
  deployment,
  browser,
}) => {
  test.setTimeout(300_000);
  await deployment.writeManifest({});
  await deployment.startSite(3129, {
    deploy: {
      token: TOKEN,
      allowedOrigins: [...SITE_REMOTES.map((r) => `http://localhost:${r.port}`), ORIGIN],
    },
    // Judged every second, on as few as 5 views of the canary, over the last minute.
    env: {
      METRICS_TOKEN: METRICS,
      CANARY_MIN_VIEWS: '5',
      CANARY_JUDGE_SECONDS: '1',
      CANARY_WINDOW_SECONDS: '60',
    },
  });
  const work = await buildPublicHealthNext('canary-public-health');
  await deployment.startRemote(path.join(work, 'dist'), 3132);
  // The team deploys with its group's own token, made by the site's operator.
  const teamToken = groupToken(SITE, TOKEN, 'public_health');
  const env = {
    DEPLOY_API: SITE,
    DEPLOY_TOKEN: teamToken,
    DEPLOY_BY: 'public-health-ci',
    REMOTE_PUBLIC_HEALTH_URL: ORIGIN,
  };

  const started = teamCommand(work, env, '--canary', '10');
  expect(started.status, started.stdout + started.stderr).toBe(0);
  expect(started.stdout).toContain(
    'canary public_health 1.1.0 live for 10% of visits beside 1.0.0',
  );

  // 1,000 first visits: each is placed in a cohort (signed by the site) and given its page's view
  // token, and about a tenth get the canary. A cohort of each kind is kept for the browsers below.
  let canaryVisits = 0;
  const cookies = new Set<string>();
  const cohorts: { canary?: string; stable?: string } = {};
  for (let batch = 0; batch < 100; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => navigate(`${SITE}${PAGE}`, { 'user-agent': BROWSER_UA })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-cache');
      const [cohort, view] = answer.headers.getSetCookie();
      expect(cohort).toMatch(/^site_cohort=\d{1,2}\.[\w-]{16}; Max-Age=86400; Path=\/;/);
      expect(view).toMatch(/^site_view=[\w-]+\.[\w-]+; Max-Age=1800; Path=\/_beacon;/);
      const value = cohort!.split(';')[0]!.slice('site_cohort='.length);
      cookies.add(value);
      const seen = (await answer.text()).includes(CANARY) ? 'canary' : 'stable';
      if (seen === 'canary') canaryVisits++;
      cohorts[seen] ??= value;
    }
  }
  console.log(`canary: ${canaryVisits} of 1000 first visits got the canary`);
  expect(canaryVisits).toBeGreaterThanOrEqual(50);
  expect(canaryVisits).toBeLessThanOrEqual(150);
  expect(cookies.size).toBeGreaterThan(50);

  // Crawlers always get the stable version, and no cookie.
  for (let i = 0; i < 20; i++) {
    const crawled = await fetch(`${SITE}${PAGE}`, { headers: { 'user-agent': CRAWLER_UA } });
    expect(crawled.headers.get('set-cookie')).toBeNull();
    expect(await crawled.text()).toContain(STABLE);
  }

  // A cohort written by hand is no cohort: the site gives a signed one in its place.
  const handSet = await fetch(`${SITE}${PAGE}`, {
    headers: { 'user-agent': BROWSER_UA, cookie: 'site_cohort=0' },
  });
  expect(handSet.headers.getSetCookie()[0]).toMatch(/^site_cohort=\d{1,2}\.[\w-]{16};/);
  const { canary: canaryCohort, stable: stableCohort } = cohorts;
  if (!canaryCohort || !stableCohort) throw new Error('no first visit got each version');

  // A visit keeps its version across ten navigations, server and client agreeing.
  for (const [cohort, heading] of [
    [canaryCohort, CANARY],
    [stableCohort, STABLE],
  ] as const) {
    const context = await withCohort(browser, cohort);
    const page = await context.newPage();
    const errors = watchConsole(page);
    for (let i = 0; i < 5; i++) {
      await page.goto(`${SITE}${PAGE}`);
      await ready(page);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await page.getByRole('link', { name: 'About', exact: true }).first().click();
      await expect(page).toHaveURL(`${SITE}/about`);
    }
    expect(errors).toEqual([]);
    await context.close();
  }

  // The canary's page throws in its visitors' browsers, whose reporter tells the site, with each
  // view's token; stable visitors keep asking for pages meanwhile.
  const stableFailures: string[] = [];
  let stableAnswers = 0;
  let loading = true;
  const stableLoad = (async () => {
    while (loading) {
      const answer = await navigate(`${SITE}${PAGE}`, {
        'user-agent': BROWSER_UA,
        cookie: `site_cohort=${stableCohort}`,
      });
      const text = await answer.text();
      stableAnswers++;
      if (answer.status !== 200 || !text.includes(STABLE)) {
        stableFailures.push(`${answer.status}`);
      }
    }
  })();
  // The canary's clean views above count too: its visitors' failing ones must outweigh them (some
  // ten of them), and the site judges every second, so they go on until it has rolled it back.
  const canaryVisitor = await withCohort(browser, canaryCohort);
  const rolledBack = async () => (await history()).at(-1)?.action === 'rollback';
  let failedViews = 0;
  while (!(await rolledBack())) {
    expect(failedViews, 'failing views of the canary before its rollback').toBeLessThan(40);
    const page = await canaryVisitor.newPage();
    const beacons: string[] = [];
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === '/_beacon') beacons.push(request.url());
    });
    await page.goto(`${SITE}${PAGE}`);
    await ready(page);
    // Rolled back meanwhile: this view is of the stable version.
    if (!(await page.getByRole('heading', { name: CANARY, exact: true }).isVisible())) break;
    await page.evaluate((n) => {
      for (let i = 0; i < 3; i++) {
        setTimeout(() => {
          throw new Error(`the canary broke (${n}.${i})`);
        });
      }
    }, failedViews);
    // Three errors, three reports; only the first of the view counts.
    await expect.poll(() => beacons.length).toBe(3);
    failedViews++;
    await page.close();
  }
  await expect.poll(async () => (await history()).at(-1)?.reason).toMatch(ROLLBACK);
  loading = false;
  await stableLoad;
  expect(stableAnswers).toBeGreaterThan(10);
  expect(stableFailures).toEqual([]);
  const [, failed, views] = ROLLBACK.exec(String((await history()).at(-1)?.reason))!;
  console.log(`canary: rolled back after ${failedViews} failing views of the canary`);
  expect(Number(failed)).toBeGreaterThan(0);
  // Each failing view counted once, however many errors its browser reported.
  expect(Number(failed)).toBeLessThanOrEqual(failedViews);
  expect(Number(views)).toBeGreaterThanOrEqual(Number(failed));

  const lines = (await history()).slice(-2);
  console.log(
    `canary history:\n${lines.map((e) => `  ${e.at} ${e.by} ${e.action} ${(e.from as { version: string }).version} -> ${(e.to as { version: string }).version}: ${e.reason}`).join('\n')}`,
  );
  expect(lines.map((e) => [e.action, e.by, e.credential])).toEqual([
    ['canary', 'public-health-ci', `group:public_health#${teamToken.split('_')[1]}`],
    ['rollback', 'site', 'site'],
  ]);
  const metrics = await (
    await fetch(`${SITE}/_metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })
  ).text();
  const beaconLine = metrics
    .split('\n')
    .filter((l) => l.includes('public_health') && l.includes('1.1.0') && l.includes('beacon'));
  console.log(`canary metrics:\n  ${beaconLine.join('\n  ')}`);
  expect(beaconLine.length).toBeGreaterThan(0);

  // Rolled back: the canary's visitors see the stable version again.
  const after = await canaryVisitor.newPage();
  await after.goto(`${SITE}${PAGE}`);
  await expect(after.getByRole('heading', { name: STABLE, exact: true })).toBeVisible();
  await canaryVisitor.close();

  // The rejected canary was never live for everyone: the team's rollback does not bring it back.
  // Everyone has had 1.0.0 alone, so there is nothing earlier to go to.
  const noEarlier = teamCommand(work, env, '--rollback');
  expect(noEarlier.status, noEarlier.stdout + noEarlier.stderr).toBe(1);
  expect(noEarlier.stderr).toContain('"public_health" has no earlier version in the history');
  const stillStable = await fetch(`${SITE}${PAGE}`, { headers: { 'user-agent': BROWSER_UA } });
  expect(await stillStable.text()).toContain(STABLE);

  // Started again and promoted: live for everyone, no cohorts any more.
  expect(teamCommand(work, env, '--canary', '10').status).toBe(0);
  const promoted = teamCommand(work, env, '--promote');
  expect(promoted.status, promoted.stdout + promoted.stderr).toBe(0);
  const everyone = await fetch(`${SITE}${PAGE}`, { headers: { 'user-agent': BROWSER_UA } });
  expect(await everyone.text()).toContain(CANARY);
  expect(everyone.headers.get('set-cookie')).toBeNull();
  expect(everyone.headers.get('cache-control')).toBe('no-cache');

  // Promoted, it is what everyone has: a rollback goes to the version it replaced.
  const back = teamCommand(work, env, '--rollback');
  expect(back.status, back.stdout + back.stderr).toBe(0);
  expect(back.stdout).toContain('rolled back public_health: 1.1.0');
  const stableAgain = await fetch(`${SITE}${PAGE}`, { headers: { 'user-agent': BROWSER_UA } });
  expect(await stableAgain.text()).toContain(STABLE);
});
