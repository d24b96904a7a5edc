import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { navigate } from '../support/navigate';
import { ready } from '../support/ready';
import { type TestDeployment, test } from '../support/deployment';
import {
  ATTACKER_MAIL,
  HOSTILE_MARK,
  HOSTILE_PATH,
  POPUP_TARGET,
  buildHostileData,
} from '../support/hostile-build';
import { buildPublicHealthNext } from '../support/team-build';
import { groupToken, teamCommand } from '../support/team-commands';
import { sample } from '../support/metric-sample';

/**
 * One owner's pages per document: a data-team build that spies and rewrites while its code is
 * resident is deployed as the team deploys (its own token, `npm run deploy -w mfe-data`), and a
 * visitor in Chromium goes on from one of its pages. Each test runs a site of its own (ports
 * 3240-3251) with remote hosts of its own for the versions it deploys.
 */
const TOKEN = 'test-deploy-token-0123456789';
const LOCAL_REMOTES = SITE_REMOTES.map((r) => `http://localhost:${r.port}`);
const DATA_PAGE = '/services/data-analytics/data-science';
const HEALTH_ORIGIN = `http://localhost:${SITE_REMOTES.find((r) => r.name === 'public_health')!.port}`;

/**
 * Starts a site on `port` and deploys the hostile data build from a host on `port + 1`; a group
 * host of the test's own at `port + 2` may be allowed too.
 */
async function siteWithHostileData(
  deployment: TestDeployment,
  port: number,
  env: Record<string, string> = {},
): Promise<string> {
  const hostile = `http://localhost:${port + 1}`;
  const site = await deployment.startSite(port, {
    deploy: {
      token: TOKEN,
      allowedOrigins: [...LOCAL_REMOTES, hostile, `http://localhost:${port + 2}`],
    },
    env,
  });
  await deployment.writeManifest({});
  const work = await buildHostileData(`hostile-data-${port}`);
  await deployment.startRemote(path.join(work, 'dist'), port + 1);
  const deployed = teamCommand(work, {
    DEPLOY_API: site,
    DEPLOY_TOKEN: groupToken(site, TOKEN, 'data'),
    DEPLOY_BY: 'data-ci',
    REMOTE_DATA_URL: hostile,
  });
  expect(deployed.stderr).toBe('');
  expect(deployed.status).toBe(0);
  return site;
}

/** The main heading of `route` as the site server renders it. */
async function headingOf(site: string, route: string): Promise<string> {
  const html = await (await fetch(`${site}${route}`)).text();
  const h1 = /<main\b[\s\S]*?<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
  return h1
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .trim();
}

/** Opens a data page and waits until the hostile code has run in its document, which it marks. */
async function openDataPage(page: Page, site: string): Promise<void> {
  await page.goto(`${site}${DATA_PAGE}`);
  await ready(page);
  await expect(page.locator(`html[data-hostile="${HOSTILE_MARK}"]`)).toBeAttached();
  await page.evaluate(() => ((window as { dataDocument?: boolean }).dataDocument = true));
}

/** Whether the document in view is the one `openDataPage` opened. */
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as { dataDocument?: boolean }).dataDocument === true);

/** Expects `route` on screen in a new document, as its owner made it. */
async function expectOwnersPage(page: Page, site: string, route: string): Promise<void> {
  await expect(page).toHaveURL(`${site}${route}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(await headingOf(site, route));
  await ready(page);
  expect(await sameDocument(page)).toBe(false);
  await expect(page.locator('html[data-hostile]')).toHaveCount(0);
  await expect(page.locator('header')).not.toContainText('(hijacked)');
  await expect(page.locator('footer')).not.toContainText('(hijacked)');
  await expect(page.locator(`a[href="${ATTACKER_MAIL}"]`)).toHaveCount(0);
}

test.describe("a group's code stays in its own document", () => {
  test('from a data page to /contact, / and a custom-dev page: each a new document, no keystroke reaches the data code, no page changed', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(180_000);
    const site = await siteWithHostileData(deployment, 3240);
    const reported: string[] = [];
    const fromRemotes: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith(HOSTILE_PATH)) reported.push(request.url());
      if (url.origin !== site) fromRemotes.push(request.url());
    });

    // To the contact page, where a prospect types.
    await openDataPage(page, site);
    await page.locator('header a[href="/contact"]').first().click();
    fromRemotes.length = 0;
    await expectOwnersPage(page, site, '/contact');
    await page.getByRole('textbox', { name: 'Full name' }).pressSequentially('Thandi Nkosi');
    await page
      .getByRole('textbox', { name: 'Email address' })
      .pressSequentially('thandi@example.co.za');
    await page.getByRole('textbox', { name: 'Subject' }).pressSequentially('Budget');
    await page.getByRole('textbox', { name: 'Message' }).pressSequentially('Our budget is R 4.2m');
    // A request of the page's own after the keystrokes: any report they caused was sent before it.
    await page.evaluate(() => fetch('/remotes.json').then((r) => r.ok));
    expect(reported).toEqual([]);
    // The contact page ran no group's code: nothing came from a group's origin.
    expect(fromRemotes).toEqual([]);

    // To the home page.
    await openDataPage(page, site);
    await page.locator('header a[href="/"]').first().click();
    await expectOwnersPage(page, site, '/');

    // To another group's page.
    await openDataPage(page, site);
    const customDev = page.locator('footer a[href^="/services/custom-dev"]').first();
    const target = (await customDev.getAttribute('href'))!;
    await customDev.click();
    await expectOwnersPage(page, site, target);
    expect(reported).toEqual([]);
  });

  test('another owner’s page the data code opens in a window of its own is out of its reach', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(180_000);
    const site = await siteWithHostileData(deployment, 3249);
    await openDataPage(page, site);
    const opened = page.context().waitForEvent('page');
    await page.locator('button[data-hostile-open]').click();
    const popup = await opened;
    await expect(popup).toHaveURL(`${site}${POPUP_TARGET}`);
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(
      await headingOf(site, POPUP_TARGET),
    );
    await ready(popup);
    // The data code found the window closed to it (another browsing context group), or was refused.
    await expect(page.locator('html')).toHaveAttribute('data-hostile-popup', /^(severed|refused)$/);
    await expect(popup.getByRole('heading', { level: 1 })).not.toHaveText('Hijacked');
    await expect(popup.locator('html[data-hostile]')).toHaveCount(0);
  });

  test('a second group never loads in a data page’s document: the share scope it replaced reaches no one', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(180_000);
    const site = await siteWithHostileData(deployment, 3242);
    const health: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`${HEALTH_ORIGIN}/`)) health.push(request.url());
    });
    await openDataPage(page, site);
    // Everything that warmed another group's code before: the link in view once the page is idle,
    // then hovered, focused and pressed.
    const link = page.locator('footer a[href="/public-health"]').first();
    await link.scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('site:warming').length))
      .toBe(1);
    await link.hover();
    await link.focus();
    await page.waitForLoadState('networkidle');
    expect(health).toEqual([]);

    await link.click();
    await expectOwnersPage(page, site, '/public-health');
    // Public health runs in its own document, on the shell's own UI package.
    expect(health.some((url) => url.endsWith('/remoteEntry.js'))).toBe(true);
    await expect(page.locator('main')).not.toContainText('Hijacked');
  });
});

test.describe("another group's canary", () => {
  test("the data code's failure reports in public health's name, after fetching its page, are refused: its healthy canary keeps running", async ({
    page,
    deployment,
  }) => {
    test.setTimeout(240_000);
    const METRICS = 'one-owner-metrics-token-0123456789';
    const port = 3246;
    // The canary is judged every second, on as few as 5 views, over the last minute.
    const site = await siteWithHostileData(deployment, port, {
      METRICS_TOKEN: METRICS,
      CANARY_MIN_VIEWS: '5',
      CANARY_JUDGE_SECONDS: '1',
      CANARY_WINDOW_SECONDS: '60',
    });
    const metrics = async () =>
      (await fetch(`${site}/_metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })).text();
    const history = async () =>
      (
        (await (
          await fetch(`${site}/_deploy/history?remote=public_health`, {
            headers: { Authorization: `Bearer ${TOKEN}` },
          })
        ).json()) as { history: { action: string; version: string }[] }
      ).history;

    // Public health's next version as a canary for half the visits, from a host of its own.
    const host = `http://localhost:${port + 2}`;
    const work = await buildPublicHealthNext(`canary-attacked-${port}`);
    await deployment.startRemote(path.join(work, 'dist'), port + 2);
    const started = teamCommand(
      work,
      {
        DEPLOY_API: site,
        DEPLOY_TOKEN: groupToken(site, TOKEN, 'public_health'),
        DEPLOY_BY: 'public-health-ci',
        REMOTE_PUBLIC_HEALTH_URL: host,
      },
      '--canary',
      '50',
    );
    expect(started.status, started.stdout + started.stderr).toBe(0);
    // Healthy views of it: visitors loading its page into a tab, each in a cohort of its own. The
    // visitor below is in a cohort that gets the canary, as half of all visitors are.
    const browserUa =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    let canaryCohort: string | undefined;
    for (let i = 0; i < 40; i++) {
      const answer = await navigate(`${site}/public-health/MandE-tools`, {
        'user-agent': browserUa,
      });
      expect(answer.status).toBe(200);
      const cohort = answer.headers.getSetCookie()[0]?.split(';')[0]?.split('=')[1];
      if ((await answer.text()).includes('Tools we build, configure and support'))
        canaryCohort ??= cohort;
    }
    if (!canaryCohort) throw new Error('no visit got the canary');
    await page
      .context()
      .addCookies([
        { name: 'site_cohort', value: canaryCohort, url: site, httpOnly: true, sameSite: 'Lax' },
      ]);

    // A visitor opens a data page: the data code fetches a public health page and reports failures
    // in its name, for every version the manifest lists.
    const refusedBefore = sample(await metrics(), 'site_beacons_refused_total');
    await openDataPage(page, site);
    await expect(page.locator('html')).toHaveAttribute('data-hostile-reports', /^[1-9]\d*$/);
    const sent = Number(await page.locator('html').getAttribute('data-hostile-reports'));
    // Every report reached the site and was refused (or held back by the rate limit).
    await expect
      .poll(async () => sample(await metrics(), 'site_beacons_refused_total') - refusedBefore)
      .toBeGreaterThanOrEqual(sent);
    // Judged every second: a few judgments later, the canary still runs.
    await page.waitForTimeout(4000);
    expect(sample(await metrics(), 'site_beacon_errors_total', { group: 'public_health' })).toBe(0);
    const actions = (await history()).map((entry) => entry.action);
    expect(actions.at(-1)).toBe('canary');
    expect(actions).not.toContain('rollback');
  });
});

test.describe('an open page survives deploys', () => {
  test('a page open while its group deploys and rolls back keeps its version; a page that version does not know is a page load', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(180_000);
    const port = 3244;
    const host = `http://localhost:${port + 1}`;
    const site = await deployment.startSite(port, {
      deploy: { token: TOKEN, allowedOrigins: [...LOCAL_REMOTES, host] },
    });
    await deployment.writeManifest({});
    const work = await buildPublicHealthNext(`survive-deploys-${port}`);
    await deployment.startRemote(path.join(work, 'dist'), port + 1);
    const healthToken = groupToken(site, TOKEN, 'public_health');
    const team = (...args: string[]) =>
      teamCommand(
        work,
        {
          DEPLOY_API: site,
          DEPLOY_TOKEN: healthToken,
          DEPLOY_BY: 'public-health-ci',
          REMOTE_PUBLIC_HEALTH_URL: host,
        },
        ...args,
      );
    const mark = () => page.evaluate(() => ((window as { opened?: boolean }).opened = true));
    const opened = () => page.evaluate(() => (window as { opened?: boolean }).opened === true);

    // Open on 1.0.0; 1.1.0 goes live meanwhile.
    await page.goto(`${site}/public-health`);
    await ready(page);
    await mark();
    const deployed = team();
    expect(deployed.stderr).toBe('');
    expect(deployed.status).toBe(0);

    // A move within the group stays in this document, on the version it was composed with.
    await page.getByRole('main').locator('a[href="/public-health/MandE-tools"]').first().click();
    await expect(page.getByRole('heading', { name: 'Tools we build and configure' })).toBeVisible();
    expect(await opened()).toBe(true);

    // A page 1.0.0 does not know, asked of this document's router: loaded as a new document.
    await page.evaluate(() => {
      window.history.pushState(null, '', '/public-health/field-training');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Field Training');
    await ready(page);
    expect(await opened()).toBe(false);
    await mark();

    // Rolled back to 1.0.0 while a 1.1.0 page is open: that document goes on with 1.1.0's files.
    const rolledBack = team('--rollback');
    expect(rolledBack.status).toBe(0);
    await page.evaluate(() => {
      window.history.pushState(null, '', '/public-health/MandE-tools');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(
      page.getByRole('heading', { name: 'Tools we build, configure and support' }),
    ).toBeVisible();
    expect(await opened()).toBe(true);
  });
});
