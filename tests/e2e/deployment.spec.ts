import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ready } from '../support/ready';
import { ROOT, TestDeployment, copyWorkspace, fingerprint } from '../support/deployment';

/**
 * Independent deployment: each test runs its own site server (the same built shell, its own deploy
 * folder) and remote servers on ports of its own, so it can redeploy, move and stop remotes without
 * touching the site the other tests use.
 */
test.describe('independent deployment', () => {
  let deployment: TestDeployment;
  test.beforeEach(() => {
    deployment = new TestDeployment();
  });
  test.afterEach(async () => {
    await deployment.close();
  });

  test('a remote redeployed with a changed page and a new page shows both after a manifest refresh; the shell is untouched', async ({
    page,
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
    const work = path.join(ROOT, 'tests', '.tmp', 'mfe-public-health');
    copyWorkspace('mfe-public-health', work);
    const pkgFile = path.join(work, 'package.json');
    writeFileSync(
      pkgFile,
      JSON.stringify({ ...JSON.parse(readFileSync(pkgFile, 'utf8')), version: '1.1.0' }),
    );
    const contentFile = path.join(work, 'src', 'content', 'mande-tools.ts');
    writeFileSync(
      contentFile,
      readFileSync(contentFile, 'utf8').replace(
        'Tools we build and configure',
        'Tools we build, configure and support',
      ),
    );
    const routesFile = path.join(work, 'src', 'routes.json');
    const table = JSON.parse(readFileSync(routesFile, 'utf8'));
    table.routes.push({
      path: '/public-health/field-training',
      title: 'Field Training',
      description:
        'Hands-on training for data collectors and supervisors, so digital M&E tools are used well from day one.',
      group: 'Public Health',
      navLabel: 'Field Training',
    });
    writeFileSync(routesFile, JSON.stringify(table));
    writeFileSync(
      path.join(work, 'src', 'pages', 'FieldTrainingPage.tsx'),
      `import { Prose, Section, ServicePage } from '@site/shared';
import { route } from '../routes';
export default function FieldTrainingPage() {
  return (
    <ServicePage route={route('/public-health/field-training')} lead="Training that sticks.">
      <Section heading="How we train"><Prose paragraphs={['Supervisors first, then their teams.']} /></Section>
    </ServicePage>
  );
}
`,
    );
    const indexFile = path.join(work, 'src', 'pages', 'index.ts');
    writeFileSync(
      indexFile,
      readFileSync(indexFile, 'utf8').replace(
        '};',
        "  '/public-health/field-training': () => import('./FieldTrainingPage'),\n};",
      ),
    );
    execFileSync(
      process.execPath,
      [require.resolve('webpack-cli/bin/cli.js'), '--mode', 'production'],
      {
        cwd: work,
        stdio: 'pipe',
      },
    );

    // Deploy: upload the version folder to the team's host, then refresh the manifest.
    await deployment.startRemote(path.join(work, 'dist'), 3114);
    await deployment.writeManifest({
      dists: { public_health: path.join(work, 'dist') },
      urls: { public_health: 'http://localhost:3114' },
    });

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
    expect((await page.request.get(`${site}/public-health/field-training`)).status()).toBe(200);

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
  }) => {
    test.setTimeout(90_000);
    const deployment = new TestDeployment();
    try {
      const site = await deployment.startSite(3130);
      await deployment.writeManifest({ urls: { enterprise_education: 'http://localhost:3133' } });
      const uncaught: string[] = [];
      page.on('pageerror', (e) => uncaught.push(e.message));

      await page.goto(`${site}/`);

      await ready(page);
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
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
      await expect(
        page.getByRole('main').getByRole('link', { name: 'Contact us' }),
      ).toHaveAttribute('href', '/contact');
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

      await deployment.startRemote(path.join(ROOT, 'mfe-enterprise-education', 'dist'), 3133);
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('e-Learning');
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
      expect(uncaught).toEqual([]);
    } finally {
      await deployment.close();
    }
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
    test(`a remote that ${name} ends in the notice within a bounded time`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.route('http://localhost:3002/**/remoteEntry.js', handler);
      const uncaught: string[] = [];
      page.on('pageerror', (e) => uncaught.push(e.message));
      await page.goto('/');
      await ready(page);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Data Engineering' }).click();
      const started = Date.now();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'This page is temporarily unavailable',
        {
          timeout: 30_000,
        },
      );
      expect(Date.now() - started).toBeLessThan(30_000);
      await expect(page.getByRole('button', { name: 'Retry' })).toBeEnabled();
      // The only uncaught error allowed is the broken script's own; the site raises none.
      expect(uncaught.filter((m) => !m.includes('broken deploy'))).toEqual([]);
    });
  }

  test('a page that crashes while rendering is contained to its area; the rest of the site works', async ({
    page,
  }) => {
    // The Data Science page's title becomes an object, which React cannot render: a render crash
    // inside the remote's page, after its code has loaded.
    await page.route(/^http:\/\/localhost:3002\/.*\.js$/, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).split('"title":"Data Science"').join('"title":{}');
      await route.fulfill({ response, body });
    });
    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));
    await page.goto('/services/data-analytics/data-science');
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
