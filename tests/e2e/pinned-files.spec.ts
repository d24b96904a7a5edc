import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Browser } from '@playwright/test';
import { sha256Integrity } from '@site/contracts/integrity';
import { ready } from '../support/ready';
import { ROOT, test, type TestDeployment } from '../support/deployment';

/**
 * Every file a group's pages load is pinned by SHA-384 when the group is deployed, and every page
 * loads it with that integrity: code added afterwards to a file on the group's static host (its
 * live remoteEntry.js, one of its chunks) does not run in a visitor's browser. The group's pages
 * show their notice with Retry, the failure is counted in the metrics and `npm run status` names
 * the changed files; another group's pages work as before. Ports 3560-3569.
 */
const TOKEN = 'test-deploy-token-pinned-files';
const METRICS_TOKEN = 'metrics-token-pinned-files-0123';
const SITE_PORT = 3560;
const DATA_PAGE = '/services/data-analytics/big-data';
const HEALTH_PAGE = '/public-health/MandE-tools';
/** What the added code does: a mark on the window and a request the test watches for. */
const STOLEN = ';window.__stolen=(window.__stolen||0)+1;fetch("/_stolen");';

const buckets: string[] = [];
test.afterEach(() => {
  for (const bucket of buckets.splice(0)) rmSync(bucket, { recursive: true, force: true });
});

/** A group's released 1.0.0 in a bucket of its own, served on `port` and deployed to the site. */
async function deployGroup(
  deployment: TestDeployment,
  site: string,
  group: { name: string; folder: string },
  port: number,
) {
  const origin = `http://localhost:${port}`;
  const bucket = mkdtempSync(path.join(os.tmpdir(), 'pinned-bucket-'));
  buckets.push(bucket);
  const released = path.join(ROOT, group.folder, 'dist', '1.0.0');
  cpSync(released, path.join(bucket, '1.0.0'), { recursive: true });
  await deployment.startRemote(bucket, port);
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${site}${route}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const { version: base } = await api('GET', '/_deploy/manifest');
  const live = await api('PUT', `/_deploy/remotes/${group.name}`, {
    base,
    entry: `${origin}/1.0.0/remoteEntry.js`,
    version: '1.0.0',
    serverIntegrity: sha256Integrity(readFileSync(path.join(released, 'server', 'pages.js'))),
    reason: 'released',
  });
  expect(live.to, JSON.stringify(live)).toEqual(expect.objectContaining({ version: '1.0.0' }));
  return path.join(bucket, '1.0.0');
}

/** Adds code to a file of the bucket, as a host that changes it would (its compressed copies too). */
function tamper(folder: string, file: string): void {
  appendFileSync(path.join(folder, file), STOLEN);
  rmSync(path.join(folder, `${file}.br`), { force: true });
  rmSync(path.join(folder, `${file}.gz`), { force: true });
}

/** Opens `url` in a fresh browser (nothing cached) and hands over the page and the requests it made. */
async function freshVisit(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  return { page, requests, close: () => context.close() };
}

const failuresCounted = async (site: string, group: string): Promise<number> => {
  const response = await fetch(`${site}/_metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  const line = new RegExp(`^site_integrity_failures_total\\{group="${group}"\\} (\\d+)$`, 'm');
  return Number(line.exec(text)?.[1] ?? 0);
};

/** `npm run status` against the site, as an operator runs it. */
function operatorStatus(site: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', 'status.ts'), '--site', site],
    { cwd: ROOT, env: { ...process.env, DEPLOY_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
  return new Promise((resolve) => child.on('exit', () => resolve(output)));
}

test('code added on the group’s host after its deploy does not run; the notice shows, the failure is counted and shown, other groups are unaffected', async ({
  browser,
  deployment,
}) => {
  test.setTimeout(240_000);
  const origins = [3561, 3562].map((port) => `http://localhost:${port}`);
  const site = await deployment.startSite(SITE_PORT, {
    deploy: { token: TOKEN, allowedOrigins: origins },
    env: { METRICS_TOKEN },
  });
  const data = await deployGroup(deployment, site, { name: 'data', folder: 'mfe-data' }, 3561);
  await deployGroup(deployment, site, { name: 'public_health', folder: 'mfe-public-health' }, 3562);

  // As deployed, the pinned files load and the page is the group's own.
  const before = await freshVisit(browser, `${site}${DATA_PAGE}`);
  await ready(before.page);
  await expect(before.page.getByRole('heading', { level: 1 })).toHaveText('Big Data');
  await before.page.getByRole('main').locator('.accordion button').first().click();
  await expect(
    before.page.getByRole('status').filter({ hasText: 'interactive parts' }),
  ).toHaveCount(0);
  await before.close();

  // The host changes the page's own chunk, then the entry every data page loads.
  const pages = JSON.parse(readFileSync(path.join(data, 'page-assets.json'), 'utf8')) as {
    pages: Record<string, string[]>;
  };
  const chunk = pages.pages[DATA_PAGE]![0]!;
  for (const changed of [[chunk], [chunk, 'remoteEntry.js']]) {
    for (const file of changed.slice(-1)) tamper(data, file);
    const visit = await freshVisit(browser, `${site}${DATA_PAGE}`);
    const notice = visit.page.getByRole('status').filter({ hasText: 'interactive parts' });
    await expect(notice, `with ${changed.join(' and ')} changed`).toBeVisible({ timeout: 60_000 });
    await expect(notice.getByRole('button', { name: 'Retry' })).toBeVisible();
    // The server's text of the page is still there; the added code never ran.
    await expect(visit.page.getByRole('heading', { level: 1 })).toHaveText('Big Data');
    expect(await visit.page.evaluate(() => (window as { __stolen?: number }).__stolen)).toBe(
      undefined,
    );
    expect(visit.requests.filter((url) => url.includes('_stolen'))).toEqual([]);
    await visit.close();
  }

  await expect.poll(() => failuresCounted(site, 'data'), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(await failuresCounted(site, 'public_health')).toBe(0);
  const status = await operatorStatus(site);
  expect(status).toContain('Pinned files: CHANGED since their deploy');
  expect(status).toMatch(new RegExp(`data 1\\.0\\.0: \\d+ integrity failures?; .*${chunk}`));

  // Another group's pages load their own pinned files and work.
  const other = await freshVisit(browser, `${site}${HEALTH_PAGE}`);
  await ready(other.page);
  await expect(other.page.getByRole('status').filter({ hasText: 'interactive parts' })).toHaveCount(
    0,
  );
  await expect(other.page.getByRole('heading', { level: 1 })).toHaveText('M & E Tools');
  await other.close();
});
