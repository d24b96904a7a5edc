import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { ROOT, test } from '../support/deployment';
import { ready } from '../support/ready';
import { sample } from '../support/metric-sample';

/**
 * What a team watches, seen from a real browser: an error thrown on one of its pages is reported
 * to the site's beacon, which, with no canary running (no view token in the page), answers it and
 * counts it as refused, never as a group's error; a group whose host is down is the site's own
 * count of a failed server render, and its page the notice. A site of its own with
 * METRICS_TOKEN on port 3300, its remotes on 3301-3303, nothing on 3309 (ports 3300-3339).
 */
const TOKEN = 'metrics-token-for-the-browser-0123';
const UP = SITE_REMOTES.find((r) => r.name === 'public_health')!;
const DOWN = SITE_REMOTES.find((r) => r.name === 'enterprise_education')!;

interface Manifest {
  remotes: { name: string; version: string; routes: { path: string }[] }[];
}

test('a page error on a group page is reported and counted as refused without a view token; a group that cannot load is counted by the site', async ({
  page,
  deployment,
}) => {
  test.setTimeout(90_000);
  const urls: Record<string, string> = { [DOWN.name]: 'http://localhost:3309' };
  let port = 3301;
  for (const remote of SITE_REMOTES.filter((r) => r !== DOWN)) {
    await deployment.startRemote(path.join(ROOT, remote.folder, 'dist'), port);
    urls[remote.name] = `http://localhost:${port}`;
    port += 1;
  }
  await deployment.writeManifest({ urls });
  const site = await deployment.startSite(3300, { env: { METRICS_TOKEN: TOKEN } });
  const metrics = async () => {
    const response = await fetch(`${site}/_metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    return response.text();
  };
  const manifest = (await (await fetch(`${site}/remotes.json`)).json()) as Manifest;
  const entry = (name: string) => manifest.remotes.find((r) => r.name === name)!;
  const up = { group: UP.name, version: entry(UP.name).version };
  const down = { group: DOWN.name, version: entry(DOWN.name).version };

  // One of the group's pages, taken over by the client; then its code throws and rejects.
  const upPath = entry(UP.name).routes[0]!.path;
  await page.goto(`${site}${upPath}`);
  await ready(page);
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('thrown by the page');
    });
    void Promise.reject(new Error('rejected by the page'));
  });
  // No canary runs, so the page carries no view token: its reports are answered and counted as
  // refused, never as a group's errors (only a token the site signed makes a report count).
  await expect
    .poll(async () => sample(await metrics(), 'site_beacons_refused_total', { reason: 'no_token' }))
    .toBe(2);
  expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);

  // An error on one of the shell's own pages is no group's.
  await page.goto(`${site}/about`);
  await ready(page);
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('thrown on a shell page');
    });
  });

  // A group whose host is down: its page is the notice on the server (a render failure), and a
  // move to it from a shell page is a page load that shows that notice whole. The site counted the
  // failure itself: the browser has nothing more to report.
  const downPath = entry(DOWN.name).routes[0]!.path;
  const direct = await fetch(`${site}${downPath}`);
  expect(direct.status).toBe(503);
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, downPath);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This page is temporarily unavailable',
    { timeout: 30_000 },
  );
  await page.waitForLoadState('networkidle');
  // The shell page's error is no group's and is not reported.
  expect(sample(await metrics(), 'site_beacons_refused_total', { reason: 'no_token' })).toBe(2);

  const text = await metrics();
  expect(sample(text, 'site_beacon_errors_total', {})).toBe(0);
  expect(
    sample(text, 'site_render_failures_total', { ...down, reason: 'error' }),
  ).toBeGreaterThanOrEqual(1);
  expect(sample(text, 'site_page_composition_seconds_count', up)).toBe(1);
  // The notice answered twice: the direct request and the visit.
  expect(sample(text, 'site_http_requests_total', { kind: 'page', status: '5xx' })).toBe(2);
  expect(sample(text, 'site_remote_info', up)).toBe(1);
});
