import { company } from '@site/ui/company';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { expect } from '@playwright/test';
import { alteredVersion } from '../support/altered-version';
import { watchConsole } from '../support/console';
import { ready } from '../support/ready';
import { ROOT, test } from '../support/deployment';
import { buildPublicHealthNext, fingerprint } from '../support/team-build';

/**
 * Independent deployment: each test runs its own site server (the same built shell, its own deploy
 * folder) and remote servers on ports of its own, so it can redeploy, move and stop remotes without
 * touching the site the other tests use.
 */
test.describe('independent deployment', () => {
  test('a remote redeployed with a changed page and a new page serves both on the next request, whole in the HTML; the shell is untouched', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(150_000);
    const shellBefore = fingerprint(path.join(ROOT, 'shell', 'dist'));
    const site = await deployment.startSite(3110);
    await deployment.writeManifest({});

    await page.goto(`${site}/public-health/MandE-tools`);

    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('M & E Tools');
    await expect(page.getByRole('heading', { name: 'Tools we build and configure' })).toBeVisible();
    expect((await page.request.get(`${site}/public-health/field-training`)).status()).toBe(404);

    // The public-health team changes a heading, adds a page, bumps the version and builds.
    const work = await buildPublicHealthNext('mfe-public-health');

    // Deploy: upload the version folder to the team's host, then refresh the manifest. Nothing
    // else runs: no restart, no prerender, no shell build.
    await deployment.startRemote(path.join(work, 'dist'), 3114);
    await deployment.writeManifest({
      dists: { public_health: path.join(work, 'dist') },
      urls: { public_health: 'http://localhost:3114' },
    });

    // The raw HTML of the next requests: the new text, and the new page whole.
    const changed = await (await page.request.get(`${site}/public-health/MandE-tools`)).text();
    expect(changed).toContain('Tools we build, configure and support');
    expect(changed).toContain('http://localhost:3114/1.1.0/');
    expect(changed).not.toContain('http://localhost:3004/1.0.0/');
    const added = await page.request.get(`${site}/public-health/field-training`);
    expect(added.status()).toBe(200);
    const addedHtml = await added.text();
    expect(addedHtml).toContain(`<title>Field Training | ${company.name}</title>`);
    expect(addedHtml).toContain(
      '<meta name="description" content="Hands-on training for data collectors and supervisors',
    );
    expect(addedHtml).toMatch(/<h1\b[^>]*>Field Training<\/h1>/);
    const sitemap = await (await page.request.get(`${site}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${site}/public-health/field-training</loc>`);

    // In the browser: no console error on the home page or the changed pages, and only the new
    // version's files are fetched.
    const errors = watchConsole(page);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    for (const p of ['/', '/public-health/MandE-tools', '/public-health/field-training']) {
      await page.goto(`${site}${p}`);
      await ready(page);
      await page.waitForLoadState('networkidle');
    }
    expect(errors).toEqual([]);
    const remoteFiles = requested.filter(
      (u) => u.startsWith('http://localhost:3004/') || u.startsWith('http://localhost:3114/'),
    );
    expect(remoteFiles.length).toBeGreaterThan(0);
    expect(remoteFiles.filter((u) => !u.startsWith('http://localhost:3114/1.1.0/'))).toEqual([]);

    await page.goto(`${site}/public-health/MandE-tools`);

    await ready(page);
    await expect(
      page.getByRole('heading', { name: 'Tools we build, configure and support' }),
    ).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Services' }).click();
    await nav.getByRole('link', { name: 'Field Training' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Field Training');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(
      'Public Health',
    );

    // Rolling back is a manifest change too.
    await deployment.writeManifest({ versions: { public_health: '1.0.0' } });
    await page.goto(`${site}/public-health/MandE-tools`);
    await ready(page);
    await expect(page.getByRole('heading', { name: 'Tools we build and configure' })).toBeVisible();
    expect((await page.request.get(`${site}/public-health/field-training`)).status()).toBe(404);

    expect(fingerprint(path.join(ROOT, 'shell', 'dist'))).toBe(shellBefore);
  });

  test('pointing the manifest at a remote on another host moves it, with no build', async ({
    page,
    deployment,
  }) => {
    const site = await deployment.startSite(3120);
    await deployment.startRemote(path.join(ROOT, 'mfe-data', 'dist'), 3122);
    await deployment.writeManifest({ urls: { data: 'http://localhost:3122' } });
    const origins = new Set<string>();
    page.on('request', (req) => origins.add(new URL(req.url()).origin));
    await page.goto(`${site}/services/data-analytics/data-science`);
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Science');
    expect(origins.has('http://localhost:3122')).toBe(true);
    expect(origins.has('http://localhost:3002')).toBe(false);
  });
});

test.describe('a site that survives a broken remote', () => {
  test('a stopped remote shows the notice, everything else works, and Retry brings the page back without a reload', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(90_000);
    const { site, restore } = await deployment.startSiteWithRemoteDown(
      3130,
      'enterprise_education',
      3133,
    );
    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));

    await page.goto(`${site}/`);

    await ready(page);
    // Each of these is another owner's page: a page load, composed by the site server.
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Learning Management Systems' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is temporarily unavailable',
      {
        timeout: 30_000,
      },
    );
    await expect(page.getByRole('main').getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      '/contact',
    );
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();

    await page.getByRole('contentinfo').getByRole('link', { name: 'Big Data' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Big Data');
    await page.getByRole('contentinfo').getByRole('link', { name: 'About us' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');
    await page.getByRole('contentinfo').getByRole('link', { name: 'e-Learning' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is temporarily unavailable',
      {
        timeout: 30_000,
      },
    );
    await ready(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

    await restore();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('e-Learning');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    expect(uncaught).toEqual([]);
  });

  test('a page whose group’s static host hangs keeps the server’s text, says quietly what is missing, and Retry recovers without a reload', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(120_000);
    const pagePath = '/services/data-analytics/big-data';
    await deployment.startRemote(path.join(ROOT, 'mfe-data', 'dist'), 3163);
    const remoteHost = deployment.children.at(-1)!;
    const site = await deployment.startSite(3162);
    await deployment.writeManifest({ urls: { data: 'http://localhost:3163' } });
    // The site server has composed the page while the host answered, as a CDN in front of a
    // stalled origin would keep it.
    expect((await fetch(`${site}${pagePath}`)).status).toBe(200);
    await new Promise((resolve) => {
      remoteHost.once('exit', resolve);
      remoteHost.kill('SIGTERM');
    });
    // The group's static host stalls: it accepts connections and never answers.
    const stalled = net.createServer(() => {
      // Never answers.
    });
    await deployment.listen(stalled, 3163);

    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));
    await page.goto(`${site}${pagePath}`);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    const heading = page.getByRole('heading', { level: 1 });
    const notice = page.getByRole('status').filter({ hasText: 'interactive parts' });
    await expect(notice).toBeVisible({ timeout: 60_000 });
    await expect(heading).toHaveText('Big Data');
    await expect(page.getByRole('main')).toContainText('Data engineering services');
    await expect(page.getByText('temporarily unavailable')).toHaveCount(0);
    // The page's links are plain links to real pages, followed by the browser itself.
    await expect(page.getByRole('main').getByRole('link', { name: /Learn More/ })).toHaveAttribute(
      'href',
      '/services/data-analytics/data-engineering',
    );
    // The rest of the site is the client's: the services menu opens.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Services' }).click();
    await expect(nav.getByRole('link', { name: 'Data Science' })).toBeVisible();
    await page.keyboard.press('Escape');

    await deployment.stop(stalled);
    await deployment.startRemote(path.join(ROOT, 'mfe-data', 'dist'), 3163);
    await notice.getByRole('button', { name: 'Retry' }).click();
    await expect(notice).toHaveCount(0);
    await expect(heading).toHaveText('Big Data');
    // The page is the group's own again: its accordions open and close.
    const firstHeader = page.getByRole('main').locator('.accordion button').first();
    const expanded = await firstHeader.getAttribute('aria-expanded');
    await firstHeader.click();
    await expect(firstHeader).not.toHaveAttribute('aria-expanded', expanded ?? '');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    expect(uncaught).toEqual([]);
  });

  const failures: [string, Parameters<import('@playwright/test').Page['route']>[1]][] = [
    [
      'answers 500 for its entry',
      (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }),
    ],
    [
      'has an entry script that throws while loading',
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/javascript',
          body: 'throw new Error("broken deploy");',
        }),
    ],
    ['hangs', () => undefined],
  ];

  for (const [name, handler] of failures) {
    test(`a remote that ${name} ends in the notice within a bounded time, on a page whole from the site`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await page.route('http://localhost:3002/**/remoteEntry.js', handler);
      const uncaught: string[] = [];
      page.on('pageerror', (e) => uncaught.push(e.message));
      await page.goto('/');
      await ready(page);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Data Engineering' }).click();
      const started = Date.now();
      // Entering a group is a page load: the page comes whole from the site, and its notice says
      // the interactive parts could not be loaded, with a Retry.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Engineering');
      const notice = page.getByRole('status').filter({ hasText: 'interactive parts' });
      await expect(notice).toBeVisible({ timeout: 30_000 });
      expect(Date.now() - started).toBeLessThan(30_000);
      await expect(notice.getByRole('button', { name: 'Retry' })).toBeEnabled();
      // The only uncaught error allowed is the broken script's own; the site raises none.
      expect(uncaught.filter((m) => !m.includes('broken deploy'))).toEqual([]);
    });
  }

  test('a page that crashes while rendering is contained to its area; the rest of the site works', async ({
    page,
    deployment,
  }) => {
    // The data team deploys a version whose Data Science page renders on the server but crashes in
    // the browser: its title becomes an object in the browser's code only, which React cannot
    // render. Deployed as built (its files pinned as they are), on a host of its own.
    const { dist, changed } = alteredVersion('data', '1.0.1', (code) =>
      code.split('"title":"Data Science"').join('"title":{}'),
    );
    expect(changed).toBeGreaterThan(0);
    await deployment.startRemote(dist, 3184);
    const site = await deployment.startSite(3183);
    await deployment.writeManifest({
      dists: { data: dist },
      urls: { data: 'http://localhost:3184' },
    });
    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));
    await page.goto(`${site}/services/data-analytics/data-science`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('This page ran into a problem');
    await expect(page.locator('#main').getByRole('link', { name: 'Contact us' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    expect(uncaught).toEqual([]);
    // The same group's other pages and the other groups still work.
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('link', { name: 'Data Engineering' }).click();
    await expect(heading).toHaveText('Data Engineering');
    await footer.getByRole('link', { name: 'e-Learning' }).click();
    await expect(heading).toHaveText(/e-Learning/);
  });
});

test.describe('a remote the site server cannot render', () => {
  /** Serves the data remote's build as version 1.0.1, with its own Node build replaced. */
  function brokenVersion(serverBuild: string): string {
    const dist = path.join(ROOT, 'tests', '.tmp', `data-broken-${process.pid}-${Date.now()}`);
    cpSync(path.join(ROOT, 'mfe-data', 'dist', '1.0.0'), path.join(dist, '1.0.1'), {
      recursive: true,
    });
    writeFileSync(path.join(dist, '1.0.1', 'server', 'pages.js'), serverBuild);
    return dist;
  }

  async function expectNotice(site: string, pagePath: string, heading: RegExp) {
    const response = await fetch(`${site}${pagePath}`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    const html = await response.text();
    expect(html).toMatch(heading);
    expect(html).toContain('>Retry</button>');
    // The layout is whole around the notice.
    expect(html).toContain('aria-label="Main"');
    expect(html).toContain('<footer');
  }

  async function expectRestFine(site: string) {
    for (const p of [
      '/',
      '/about',
      '/services/custom-dev/software-dev',
      '/public-health/MandE-tools',
    ]) {
      const response = await fetch(`${site}${p}`);
      expect(response.status, p).toBe(200);
      expect(await response.text(), p).not.toContain('temporarily unavailable');
    }
  }

  test('a page that throws while rendering: 503 with the notice, logged with its remote and version, the rest fine', async ({
    page,
    deployment,
  }) => {
    // The data team's new version: every page's component throws when rendered.
    const paths = JSON.parse(
      readFileSync(path.join(ROOT, 'mfe-data', 'src', 'routes.json'), 'utf8'),
    ).routes.map((r: { path: string }) => r.path);
    const dist = brokenVersion(
      `exports.pages = Object.fromEntries(${JSON.stringify(paths)}.map((p) => [p, async () => ({
  default: function Broken() { throw new Error('the data team broke this page'); },
})]));\n`,
    );
    await deployment.startRemote(dist, 3172);
    const site = await deployment.startSite(3170);
    await deployment.writeManifest({
      dists: { data: dist },
      urls: { data: 'http://localhost:3172' },
    });
    await expectNotice(site, '/services/data-analytics/big-data', /This page ran into a problem/);
    await expectRestFine(site);
    await expect.poll(() => deployment.siteLog).toContain('data@1.0.1 could not be rendered');
    expect(deployment.siteLog).toContain('the data team broke this page');

    // A visitor on a slow phone sees the notice in the layout and taps on before the client has
    // taken over: the client adopts the notice as the server sent it (the group's browser code
    // would render, but the first render is what the server said), so the tap is not lost.
    const errors = watchConsole(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { __h1: unknown }).__h1 = document.querySelector('main h1');
      });
    });
    await page.goto(`${site}/services/data-analytics/big-data`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/ran into a problem/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'About us' }).click();
    await expect(heading).toHaveText('About Us');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    // Landing again and waiting: the notice painted from the HTML is the element the client keeps
    // (adopted, not thrown away), and Retry shows the page once the browser can render it.
    await page.goto(`${site}/services/data-analytics/big-data`);
    await ready(page);
    expect(
      await page.evaluate(
        () => (window as unknown as { __h1: unknown }).__h1 === document.querySelector('main h1'),
      ),
    ).toBe(true);
    await expect(heading).toHaveText(/ran into a problem/);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(heading).toHaveText('Big Data');
    // The console names the 503 and the server's verdict, and nothing else: no hydration error.
    expect(
      errors.filter((e) => !/status of 503|could not render|ran into a problem/.test(e)),
    ).toEqual([]);
  });

  test('a remote whose files are gone: 503 with the notice and Retry, the rest fine', async ({
    deployment,
  }) => {
    const site = await deployment.startSite(3175);
    // Nothing listens where the data remote is said to be.
    await deployment.writeManifest({ urls: { data: 'http://localhost:3177' } });
    await expectNotice(
      site,
      '/services/data-analytics/big-data',
      /This page is temporarily unavailable/,
    );
    await expectRestFine(site);
    await expect.poll(() => deployment.siteLog).toContain('data@1.0.0 could not be rendered');
  });

  test('a remote whose server never answers: its build is given up at the fetch time limit, 503, the rest fine', async ({
    deployment,
  }) => {
    const hanging = http.createServer(() => {
      // Never answers.
    });
    await deployment.listen(hanging, 3182);
    const site = await deployment.startSite(3180, { renderTimeoutMs: 1500 });
    await deployment.writeManifest({ urls: { data: 'http://localhost:3182' } });
    const started = Date.now();
    await expectNotice(
      site,
      '/services/data-analytics/big-data',
      /This page is temporarily unavailable/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await expectRestFine(site);
    await expect
      .poll(() => deployment.siteLog)
      .toMatch(
        /server\/pages\.js of data@1\.0\.0 could not be fetched .* \(no answer within \d+ ms\)/,
      );
  });
});

test.describe('the live manifest', () => {
  test('a manifest file that does not parse never reaches visitors: the live one stays, and the publish says why', async ({
    deployment,
  }) => {
    const site = await deployment.startSite(3185);
    await deployment.writeManifest({});
    expect((await fetch(`${site}/services/data-analytics/big-data`)).status).toBe(200);
    const good = await (await fetch(`${site}/remotes.json`)).text();
    writeFileSync(path.join(deployment.deployDir, 'remotes.json'), '{"schemaVersion":1}');
    await expect(deployment.publishManifestFile()).rejects.toThrow(
      /the manifest has no "remotes" list/,
    );
    expect(await (await fetch(`${site}/remotes.json`)).text()).toBe(good);
    expect((await fetch(`${site}/services/data-analytics/big-data`)).status).toBe(200);
    expect((await fetch(`${site}/about`)).status).toBe(200);
  });
});
