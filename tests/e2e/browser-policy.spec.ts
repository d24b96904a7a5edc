import { cpSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { ready } from '../support/ready';
import { ROOT, test } from '../support/deployment';
import { FOREIGN_PORT, buildPublicHealthHostile } from '../support/hostile-policy-build';
import { groupToken, teamCommand } from '../support/team-commands';
import { sample } from '../support/metric-sample';

/**
 * A hostile group in a visitor's Chrome: the public-health team deploys, with its own token and
 * its own command, a version whose browser code tries on its own pages what no group may do. The
 * page's policy stops it from running inline code and from reaching any origin but the site and
 * its own (each violation reported and counted for the group); it cannot send a message as the
 * visitor (the contact page's token is not in a page it fetches: 403, no mail); and what it left
 * in the browser's storage does nothing once the team's version is rolled back: the next visit's
 * pages are the site's own. Ports: the site 3466, the team's origin 3467, its mail-service 3468, the
 * foreign origin 3469.
 */
const TOKEN = 'browser-policy-deploy-token-0123456789';
const METRICS = 'browser-policy-metrics-token-0123456789';
const SITE = 'http://localhost:3466';
const ORIGIN = 'http://localhost:3467';
const PAGE = '/public-health/MandE-tools';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

test("a group's code on its own pages reaches no other origin, runs no inline code, sends no message, and what it stored does nothing after its rollback", async ({
  deployment,
  browser,
}) => {
  test.setTimeout(300_000);
  // Whatever reaches the foreign origin is kept here: nothing must.
  const reached: string[] = [];
  const foreign = createServer((request, response) => {
    reached.push(request.url ?? '');
    response.end('ok');
  });
  await new Promise<void>((resolve) => foreign.listen(FOREIGN_PORT, resolve));
  try {
    await deployment.writeManifest({});
    // A mail-service of the site's own, which takes the site's origin: only the site stands between
    // the group's code and a message.
    const mail = await deployment.startMailService(3468, SITE);
    await deployment.startSite(3466, {
      apiTarget: mail,
      deploy: {
        token: TOKEN,
        allowedOrigins: [...SITE_REMOTES.map((r) => `http://localhost:${r.port}`), ORIGIN],
      },
      env: { METRICS_TOKEN: METRICS },
    });
    const built = await buildPublicHealthHostile();
    const work = path.join(ROOT, 'tests', '.tmp', 'browser-policy-hostile');
    rmSync(work, { recursive: true, force: true });
    cpSync(built, work, {
      recursive: true,
      filter: (src) => !/(^|[/\\])node_modules([/\\]|$)/.test(path.relative(built, src)),
    });
    await deployment.startRemote(path.join(work, 'dist'), 3467);
    const env = {
      DEPLOY_API: SITE,
      DEPLOY_TOKEN: groupToken(SITE, TOKEN, 'public_health'),
      DEPLOY_BY: 'public-health-ci',
      REMOTE_PUBLIC_HEALTH_URL: ORIGIN,
    };
    const deployed = teamCommand(work, env);
    expect(deployed.status, deployed.stdout + deployed.stderr).toBe(0);

    const metrics = async () =>
      (await fetch(`${SITE}/_metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })).text();
    const context = await browser.newContext({ userAgent: BROWSER_UA });
    const page = await context.newPage();
    const policyBlocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyBlocked.push(message.text());
    });
    await page.goto(`${SITE}${PAGE}`);
    await ready(page);
    const found = await page.waitForFunction(
      () =>
        (window as unknown as { __hostile?: { done?: boolean } }).__hostile?.done === true &&
        (window as unknown as { __hostile: unknown }).__hostile,
    );
    const results = (await found.jsonValue()) as Record<string, unknown>;
    // The group's code ran on its own page, and got nothing it tried for.
    expect(results).toMatchObject({
      foreign: 'blocked',
      contactToken: false,
      sendmail: 403,
      sendmailError: 'contact_token',
    });
    expect(await page.evaluate(() => (window as { __inlineRan?: boolean }).__inlineRan)).toBe(
      undefined,
    );
    expect(reached).toEqual([]);
    expect(policyBlocked.length).toBeGreaterThan(0);
    // Each violation was reported to the site and counted for the group.
    await expect
      .poll(async () =>
        sample(await metrics(), 'site_csp_violations_total', {
          group: 'public_health',
          directive: 'connect-src',
        }),
      )
      .toBeGreaterThanOrEqual(1);
    await expect
      .poll(async () =>
        sample(await metrics(), 'site_csp_violations_total', {
          group: 'public_health',
          directive: 'script-src-elem',
        }),
      )
      .toBeGreaterThanOrEqual(1);

    // The team's version is rolled back; the visitor comes back in the same browser.
    const rolledBack = teamCommand(work, env, '--rollback');
    expect(rolledBack.status, rolledBack.stdout + rolledBack.stderr).toBe(0);
    const stored = await page.evaluate(async () => ({
      local: localStorage.length,
      session: sessionStorage.getItem('site:scroll-positions'),
      caches: await caches.keys(),
    }));
    expect(stored).toEqual({ local: 1, session: expect.any(String), caches: ['site-pages'] });
    await page.goto(`${SITE}/about`);
    await ready(page);
    await page.reload();
    await ready(page);
    // The site's own page, at its top: nothing of what the group stored is read.
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Hijacked');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goto(`${SITE}${PAGE}`);
    await ready(page);
    await expect(page.getByText('Tools we build and configure').first()).toBeVisible();
    expect(
      await page.evaluate(() => 'done' in ((window as { __hostile?: object }).__hostile ?? {})),
    ).toBe(false);
    await context.close();
  } finally {
    await new Promise((resolve) => foreign.close(resolve));
  }
});
