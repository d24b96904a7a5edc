import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { ready } from '../support/ready';
import { ROOT, changesOf, test } from '../support/deployment';
import { buildPublicHealthNext, fingerprint } from '../support/team-build';
import { groupToken } from '../support/team-commands';

/**
 * A page-group team ships alone, through the site's deploy API, with its group's own deploy
 * token: each test runs a site of its own (ports 3160-3169) with the operator's token, and its own
 * remote hosts.
 */
const TOKEN = 'test-deploy-token-0123456789';
const LOCAL_REMOTES = SITE_REMOTES.map((r) => `http://localhost:${r.port}`);

async function api(site: string, method: string, route: string, body?: unknown, token = TOKEN) {
  const response = await fetch(`${site}${route}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Runs the team's command (`npm run deploy|rollback -w <group>`) in a workspace, with the team's
 * token (`DEPLOY_TOKEN` in `env`).
 */
function team(
  workspace: string,
  site: string,
  env: Record<string, string> & { DEPLOY_TOKEN: string },
  ...args: string[]
) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', 'deploy.ts'), ...args],
    {
      cwd: workspace,
      env: {
        ...process.env,
        DEPLOY_API: site,
        DEPLOY_BY: 'public-health-ci',
        ...env,
      },
      encoding: 'utf8',
    },
  );
}

test.describe('a team deploys and rolls back its group on its own', () => {
  test('deploy a new version with changed text and a new page, then roll back; nothing else changes', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(180_000);
    const shellBefore = fingerprint(path.join(ROOT, 'shell', 'dist'));
    const site = await deployment.startSite(3160, {
      deploy: { token: TOKEN, allowedOrigins: [...LOCAL_REMOTES, 'http://localhost:3161'] },
    });
    await deployment.writeManifest({});
    const manifestBefore = JSON.parse((await deployment.storedManifest())!);

    // The public-health team changes a heading, adds a page, bumps its version and builds.
    const work = await buildPublicHealthNext('team-public-health');
    // The team's host serves its version folders.
    await deployment.startRemote(path.join(work, 'dist'), 3161);
    // Each team holds its own token; the data team's cannot move public health.
    const healthToken = groupToken(site, TOKEN, 'public_health');
    const dataToken = groupToken(site, TOKEN, 'data');
    const origin = { REMOTE_PUBLIC_HEALTH_URL: 'http://localhost:3161' };

    const foreign = team(work, site, { ...origin, DEPLOY_TOKEN: dataToken });
    expect(foreign.status).toBe(1);
    expect(foreign.stderr).toMatch(
      /^deploy: refused \(HTTP 403, group_not_allowed\): the deploy token group:data#[0-9a-f]{12} may change only data, not public_health; nothing was changed\n$/,
    );
    expect(JSON.parse((await deployment.storedManifest())!)).toEqual(manifestBefore);

    const deployed = team(
      work,
      site,
      { ...origin, DEPLOY_TOKEN: healthToken },
      '--reason',
      'Field training page',
    );
    expect(deployed.stderr).toBe('');
    expect(deployed.status).toBe(0);
    expect(deployed.stdout).toContain('deployed public_health: 1.0.0');
    expect(deployed.stdout).toContain('-> 1.1.0 (http://localhost:3161/1.1.0/remoteEntry.js)');

    // Only the team's entry changed.
    const manifestAfter = JSON.parse((await deployment.storedManifest())!);
    const others = (m: { remotes: { name: string }[] }) =>
      m.remotes.filter((r) => r.name !== 'public_health');
    expect(others(manifestAfter)).toEqual(others(manifestBefore));

    // The live site serves both on the next request.
    const added = await fetch(`${site}/public-health/field-training`);
    expect(added.status).toBe(200);
    expect(await added.text()).toMatch(/<h1\b[^>]*>Field Training<\/h1>/);
    await page.goto(`${site}/public-health/MandE-tools`);
    await ready(page);
    await expect(
      page.getByRole('heading', { name: 'Tools we build, configure and support' }),
    ).toBeVisible();

    const history = await api(
      site,
      'GET',
      '/_deploy/history?remote=public_health',
      undefined,
      healthToken,
    );
    const healthId = /^gdt_([0-9a-f]{12})_/.exec(healthToken)?.[1];
    expect(changesOf(history.body.history)).toEqual([
      expect.objectContaining({
        by: 'public-health-ci',
        credential: `group:public_health#${healthId}`,
        action: 'deploy',
        from: expect.objectContaining({ version: '1.0.0' }),
        to: expect.objectContaining({ version: '1.1.0' }),
        reason: 'Field training page',
      }),
    ]);

    // Roll back: the old text is back, the new page is gone.
    const foreignRollback = team(work, site, { DEPLOY_TOKEN: dataToken }, '--rollback');
    expect(foreignRollback.status).toBe(1);
    expect(foreignRollback.stderr).toContain('refused (HTTP 403, group_not_allowed)');
    const rolledBack = team(work, site, { DEPLOY_TOKEN: healthToken }, '--rollback');
    expect(rolledBack.status).toBe(0);
    expect(rolledBack.stdout).toContain('rolled back public_health: 1.1.0');
    expect(rolledBack.stdout).toContain('-> 1.0.0');
    await page.goto(`${site}/public-health/MandE-tools`);
    await ready(page);
    await expect(page.getByRole('heading', { name: 'Tools we build and configure' })).toBeVisible();
    expect((await fetch(`${site}/public-health/field-training`)).status).toBe(404);

    expect(fingerprint(path.join(ROOT, 'shell', 'dist'))).toBe(shellBefore);
  });

  test('a deploy that would break the site is refused with its reason, and the live manifest stays byte for byte', async ({
    deployment,
  }) => {
    test.setTimeout(90_000);
    const host = 'http://localhost:3166';
    const site = await deployment.startSite(3165, {
      deploy: { token: TOKEN, allowedOrigins: [...LOCAL_REMOTES, host] },
    });
    await deployment.writeManifest({});
    const live = () => deployment.storedManifest();
    const before = await live();
    const { body } = await api(site, 'GET', '/_deploy/manifest');
    const base = body.version as string;

    // Version folders of the public-health team, each broken in one way.
    const dist = path.join(ROOT, 'tests', '.tmp', `team-broken-${process.pid}`);
    rmSync(dist, { recursive: true, force: true });
    const variant = (version: string, change: (folder: string) => void) => {
      const folder = path.join(dist, version);
      cpSync(path.join(ROOT, 'mfe-public-health', 'dist', '1.0.0'), folder, { recursive: true });
      change(folder);
    };
    const json = (file: string, edit: (value: Record<string, unknown>) => void) => {
      const value = JSON.parse(readFileSync(file, 'utf8'));
      edit(value);
      writeFileSync(file, JSON.stringify(value));
    };
    variant('1.0.1', () => undefined);
    variant('1.0.2', (folder) =>
      json(path.join(folder, 'routes.json'), (t) => {
        (t.prefixes as string[]).push('/services/data-analytics');
        (t.routes as unknown[]).push({
          path: '/services/data-analytics/big-data',
          title: 'Big Data, again',
          description:
            'A page that another group already owns, claimed by this one by mistake in its route table.',
          group: 'Public Health',
          navLabel: 'Big Data',
        });
      }),
    );
    variant('1.0.3', (folder) =>
      writeFileSync(
        path.join(folder, 'server', 'pages.js'),
        `const paths = ${JSON.stringify(
          JSON.parse(readFileSync(path.join(folder, 'routes.json'), 'utf8')).routes.map(
            (r: { path: string }) => r.path,
          ),
        )};
exports.pages = Object.fromEntries(paths.map((p) => [p, async () => ({ default: function Broken() { throw new Error('a typo in the new page'); } })]));\n`,
      ),
    );
    variant('1.0.4', (folder) =>
      json(path.join(folder, 'mf-manifest.json'), (m) => {
        for (const s of m.shared as { name: string; requiredVersion: string }[]) {
          if (s.name === '@site/ui') s.requiredVersion = '^1.1.0';
        }
      }),
    );
    await deployment.startRemote(dist, 3166);
    const healthToken = groupToken(site, TOKEN, 'public_health');
    const put = (version: string, extra: Record<string, unknown> = {}, token = healthToken) =>
      api(
        site,
        'PUT',
        '/_deploy/remotes/public_health',
        { base, entry: `${host}/${version}/remoteEntry.js`, version, reason: 'test', ...extra },
        token,
      );

    const cases: [string, Awaited<ReturnType<typeof put>>, number, RegExp][] = [
      [
        'a stale base',
        await put('1.0.1', { base: 'not-the-live-version' }),
        409,
        /live manifest is at version/,
      ],
      ['no token', await put('1.0.1', {}, ''), 401, /deploy token/],
      ['a wrong token', await put('1.0.1', {}, 'guess'), 401, /deploy token/],
      [
        'an origin not allowed',
        await put('1.0.1', { entry: 'http://localhost:3999/1.0.1/remoteEntry.js' }),
        403,
        /may point only at/,
      ],
      [
        'a colliding path',
        await put('1.0.2'),
        422,
        /overlaps "\/services\/data-analytics" of remote "data"/,
      ],
      [
        'a page that throws when rendered',
        await put('1.0.3'),
        422,
        /could not be rendered: .*a typo in the new page/,
      ],
      [
        'a newer @site/ui than the shell provides',
        await put('1.0.4'),
        422,
        /needs @site\/ui \^1\.1\.0 \(the shell provides 1\.0\.0\): deploy a shell that provides it first/,
      ],
    ];
    for (const [name, answer, status, reason] of cases) {
      expect(answer.status, name).toBe(status);
      expect(String(answer.body.message), name).toMatch(reason);
      expect(await live(), name).toBe(before);
    }
    expect(changesOf((await api(site, 'GET', '/_deploy/history')).body.history)).toEqual([]);

    // The same checks pass a good version, which then goes live.
    const good = await put('1.0.1');
    expect(good.status).toBe(200);
    expect(await live()).not.toBe(before);
    rmSync(dist, { recursive: true, force: true });
  });
});

test.describe('a broken group at run time', () => {
  test('landing on a group page while its remote is down, then Retry once it is back, shows the page without a reload', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(90_000);
    const { site, restore } = await deployment.startSiteWithRemoteDown(
      3167,
      'enterprise_education',
      3168,
    );
    const response = await page.goto(`${site}/services/education/e-learning`);
    expect(response?.status()).toBe(503);
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is temporarily unavailable',
      {
        timeout: 30_000,
      },
    );
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

    await restore();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('e-Learning', {
      timeout: 30_000,
    });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  });

  test('one bad entry in the live manifest spoils only its own group', async ({
    page,
    deployment,
  }) => {
    const site = await deployment.startSite(3169);
    await deployment.writeManifest({});
    const file = path.join(deployment.deployDir, 'remotes.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const data = manifest.remotes.find((r: { name: string }) => r.name === 'data');
    data.routes[0].path = '/somewhere-else/bi';
    writeFileSync(file, JSON.stringify(manifest));
    await deployment.publishManifestFile();

    await expect
      .poll(async () => (await fetch(`${site}/services/data-analytics/big-data`)).status)
      .toBe(503);
    for (const p of [
      '/',
      '/about',
      '/services/custom-dev/software-dev',
      '/public-health/MandE-tools',
    ]) {
      expect((await fetch(`${site}${p}`)).status, p).toBe(200);
    }
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${site}/`);
    await ready(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Software Development' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Software Development');
    await page.goto(`${site}/services/data-analytics/big-data`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is temporarily unavailable',
    );
    expect(pageErrors).toEqual([]);
  });
});
