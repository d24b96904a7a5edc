import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { watchConsole } from '../support/console';
import { ready } from '../support/ready';
import { test } from '../support/deployment';
import { buildPublicHealthNext } from '../support/team-build';
import { groupToken, teamCommand } from '../support/team-commands';

/**
 * Preview in production: the public-health team's next version (a changed heading and a new page),
 * checked by the site and shown only to the browser that opened its signed link, until the team
 * promotes it. Ports: the site 3127, the team's origin 3128.
 */
const TOKEN = 'preview-deploy-token-0123456789';
const SITE = 'http://localhost:3127';
const ORIGIN = 'http://localhost:3128';
const PAGE = '/public-health/MandE-tools';
const LIVE_HEADING = 'Tools we build and configure';
const NEXT_HEADING = 'Tools we build, configure and support';

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

test('a previewed version is seen by the browser that opened its link, by no one else, until it is promoted', async ({
  deployment,
  browser,
}) => {
  test.setTimeout(300_000);
  await deployment.writeManifest({});
  await deployment.startSite(3127, {
    deploy: {
      token: TOKEN,
      allowedOrigins: [...SITE_REMOTES.map((r) => `http://localhost:${r.port}`), ORIGIN],
    },
  });
  const work = await buildPublicHealthNext('preview-public-health');
  await deployment.startRemote(path.join(work, 'dist'), 3128);
  // The team previews and promotes with its group's own token, made by the site's operator.
  const env = {
    DEPLOY_API: SITE,
    DEPLOY_TOKEN: groupToken(SITE, TOKEN, 'public_health'),
    REMOTE_PUBLIC_HEALTH_URL: ORIGIN,
  };
  const manifestBefore = await (await fetch(`${SITE}/remotes.json`)).text();

  // The team's preview: every check runs, nothing goes live, a link is printed.
  const previewed = teamCommand(work, env, '--preview');
  expect(previewed.status, previewed.stdout + previewed.stderr).toBe(0);
  const link = new RegExp(`${SITE}/_preview/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+(\\?page=\\S+)?`).exec(
    previewed.stdout,
  )?.[0];
  expect(link, previewed.stdout).toBeDefined();
  expect(previewed.stdout).toContain('preview of public_health 1.1.0');
  expect(await (await fetch(`${SITE}/remotes.json`)).text()).toBe(manifestBefore);

  const previewer = await browser.newContext();
  const other = await browser.newContext();
  try {
    const page = await previewer.newPage();
    const errors = watchConsole(page);
    await page.goto(link!);
    // The link leads to the page the version adds first, not to the group's first page.
    expect(previewed.stdout).toContain(
      'it opens /public-health/field-training, the first page this version adds',
    );
    expect(new URL(page.url()).pathname).toBe('/public-health/field-training');
    await ready(page);
    const bar = page.getByRole('status').filter({ hasText: 'Preview: public-health 1.1.0' });
    await expect(bar).toBeVisible();
    // A page the group does not have, or another site, is never where a link leads.
    for (const asked of ['//evil.example/', 'https://evil.example/', '/about']) {
      await page.goto(`${link!.split('?')[0]}?${new URLSearchParams({ page: asked })}`);
      expect(page.url()).toBe(`${SITE}/public-health`);
    }

    // The server's HTML of the previewed page: the new text, for this browser alone.
    const answer = await page.goto(`${SITE}${PAGE}`);
    expect(answer!.headers()['cache-control']).toBe('private, no-store');
    expect(answer!.headers()['x-robots-tag']).toBe('noindex');
    const html = await answer!.text();
    expect(html).toContain(NEXT_HEADING);
    expect(html).toContain(`${ORIGIN}/1.1.0/`);
    await ready(page);
    await expect(heading(page, NEXT_HEADING)).toBeVisible();
    // The page the new version adds is there for the previewer only.
    expect((await page.request.get(`${SITE}/public-health/field-training`)).status()).toBe(200);
    expect((await fetch(`${SITE}/public-health/field-training`)).status).toBe(404);

    // Nobody else gets it, in between or after: not another browser, not a request without cookies.
    const plain = await fetch(`${SITE}${PAGE}`);
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    expect(await plain.text()).toContain(LIVE_HEADING);
    const otherPage = await other.newPage();
    await otherPage.goto(`${SITE}${PAGE}`);
    await ready(otherPage);
    await expect(heading(otherPage, LIVE_HEADING)).toBeVisible();
    await expect(otherPage.getByText('Preview:')).toHaveCount(0);

    // Client navigation out of the group and back in keeps the previewed version.
    await page.getByRole('link', { name: 'About', exact: true }).first().click();
    await expect(page).toHaveURL(`${SITE}/about`);
    await page.goBack();
    await expect(page).toHaveURL(`${SITE}${PAGE}`);
    await expect(heading(page, NEXT_HEADING)).toBeVisible();
    await expect(bar).toBeVisible();
    expect(errors).toEqual([]);

    // A token altered by one character, or one that has expired, shows the live site.
    const [payload, mac] = new URL(link!).pathname.split('/').at(-1)!.split('.');
    const flipped = `${payload!.slice(0, -2)}${payload!.at(-2) === 'A' ? 'B' : 'A'}${payload!.at(-1)}`;
    for (const token of [`${flipped}.${mac}`, `${payload}.${mac!.slice(0, -1)}`]) {
      const tampered = await other.newPage();
      await tampered.goto(`${SITE}/_preview/${token}`);
      expect(new URL(tampered.url()).pathname).toBe('/');
      await tampered.goto(`${SITE}${PAGE}`);
      await expect(heading(tampered, LIVE_HEADING)).toBeVisible();
      await tampered.close();
    }
    expect((await other.cookies()).map((c) => c.name)).not.toContain('site_preview');
    const manifest = (await (
      await fetch(`${SITE}/_deploy/manifest`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).json()) as { version: string };
    const short = await fetch(`${SITE}/_deploy/remotes/public_health`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        base: manifest.version,
        entry: `${ORIGIN}/1.1.0/remoteEntry.js`,
        version: '1.1.0',
        preview: true,
        previewSeconds: 1,
      }),
    });
    const expiring = ((await short.json()) as { preview: { url: string } }).preview.url;
    // The link lasts a second (to the whole second): opened again until it lets no one in.
    const late = await other.newPage();
    await expect
      .poll(
        async () => {
          await other.clearCookies();
          await late.goto(expiring);
          return (await other.cookies()).map((c) => c.name);
        },
        { timeout: 15_000 },
      )
      .not.toContain('site_preview');
    await late.goto(`${SITE}${PAGE}`);
    await expect(heading(late, LIVE_HEADING)).toBeVisible();

    // The bar's link ends the preview.
    await bar.getByRole('link', { name: 'End preview' }).click();
    await page.goto(`${SITE}${PAGE}`);
    await expect(heading(page, LIVE_HEADING)).toBeVisible();
    await expect(page.getByText('Preview:')).toHaveCount(0);

    // Promoted, the version is live for everyone through the normal compare-and-swap.
    const promoted = teamCommand(work, env, '--promote');
    expect(promoted.status, promoted.stdout + promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain('deployed public_health: 1.0.0');
    const history = (await (
      await fetch(`${SITE}/_deploy/history?remote=public_health`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as { history: { reason: string }[] };
    expect(history.history.at(-1)?.reason).toBe('promote 1.1.0');
    await otherPage.goto(`${SITE}${PAGE}`);
    await expect(heading(otherPage, NEXT_HEADING)).toBeVisible();

    // Versions that add no page: the link opens the first page the version renders otherwise, and
    // the group's first page when its server render is the same (the same files as another version).
    const variant = (version: string, change: (text: string) => string) => {
      const folder = path.join(work, 'dist', version);
      cpSync(path.join(work, 'dist', '1.1.0'), folder, { recursive: true });
      for (const file of readdirSync(folder, { recursive: true }) as string[]) {
        if (!file.endsWith('.js')) continue;
        const text = readFileSync(path.join(folder, file), 'utf8');
        if (change(text) === text) continue;
        writeFileSync(path.join(folder, file), change(text));
        rmSync(path.join(folder, `${file}.br`), { force: true });
        rmSync(path.join(folder, `${file}.gz`), { force: true });
      }
    };
    variant('1.1.1', (text) => text);
    variant('1.1.2', (text) => text.replaceAll(NEXT_HEADING, 'Tools we build, run and support'));
    const previewOf = async (version: string) => {
      const { version: base } = (await (
        await fetch(`${SITE}/_deploy/manifest`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      ).json()) as { version: string };
      const answer = await fetch(`${SITE}/_deploy/remotes/public_health`, {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${env.DEPLOY_TOKEN}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          base,
          entry: `${ORIGIN}/${version}/remoteEntry.js`,
          version,
          preview: true,
        }),
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { preview: { page: string; pageWhy: string } }).preview;
    };
    expect(await previewOf('1.1.1')).toMatchObject({ page: '/public-health', pageWhy: 'first' });
    expect(await previewOf('1.1.2')).toMatchObject({ page: PAGE, pageWhy: 'rendered' });
  } finally {
    await previewer.close();
    await other.close();
  }
});
