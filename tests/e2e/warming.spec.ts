import { expect, test, type Page, type Request } from '@playwright/test';
import { saveData } from '../support/save-data';

/**
 * Warming: on a phone (touch, no hover) the page groups linked from the viewport are fetched once
 * the page has loaded and is idle, so a first tap into a group fetches no remote code; never before
 * `load`, and never when the visitor asked to save data.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const REMOTE = /^http:\/\/localhost:300[1-4]\//;
/** The home page's card into the custom development group: its overview. */
const TARGET = { path: '/services/custom-dev', title: 'Custom Development' };

/** Records every request to a remote's origin, with whether the page had fired `load` yet. */
function recordRemoteRequests(page: Page) {
  const requests: { url: string; beforeLoad: boolean }[] = [];
  let loaded = false;
  page.on('load', () => (loaded = true));
  page.on('request', (r: Request) => {
    if (REMOTE.test(r.url())) requests.push({ url: r.url(), beforeLoad: !loaded });
  });
  return requests;
}

const ready = (page: Page) => page.waitForSelector('html[data-app-ready="true"] main h1');

test('a first tap into a group fetches no remote code once warming has happened', async ({
  page,
}) => {
  const requests = recordRemoteRequests(page);
  await page.goto('/');
  await ready(page);
  const link = page.locator(`main a[href="${TARGET.path}"]`).first();
  await link.scrollIntoViewIfNeeded();
  await expect
    .poll(() => requests.map((r) => r.url).filter((u) => u.includes(':3001/')).length)
    .toBeGreaterThanOrEqual(3);
  await page.waitForLoadState('networkidle');
  const fetchedBeforeTap = requests.map((r) => r.url);
  expect(fetchedBeforeTap.some((u) => /:3001\/.*remoteEntry\.js$/.test(u))).toBe(true);

  // What is fetched from the tap until the new page is on screen.
  const afterTap: string[] = [];
  const record = (r: Request) => REMOTE.test(r.url()) && afterTap.push(r.url());
  page.on('request', record);
  await link.tap();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TARGET.title);
  page.off('request', record);
  // The code this navigation needs: the group's entry, its exposed module and the page's chunk,
  // as the group's build lists them. None of it may be fetched after the tap.
  const entry = fetchedBeforeTap.find((u) => /:3001\/.*remoteEntry\.js$/.test(u))!;
  const assets = (await (await fetch(new URL('page-assets.json', entry))).json()) as {
    pages: Record<string, string[]>;
  };
  const needed = [
    entry,
    ...fetchedBeforeTap.filter((u) => u.includes(':3001/') && u.includes('__federation_expose_')),
    ...(assets.pages[TARGET.path] ?? []).map((f) => new URL(f, entry).href),
  ];
  expect(needed.length).toBeGreaterThanOrEqual(3);
  expect(needed.filter((u) => fetchedBeforeTap.includes(u))).toEqual(needed);
  expect(afterTap.filter((u) => needed.includes(u))).toEqual([]);
});

test('warming never starts before the load event', async ({ page }) => {
  const requests = recordRemoteRequests(page);
  await page.goto('/');
  await ready(page);
  await page.locator(`main a[href="${TARGET.path}"]`).first().scrollIntoViewIfNeeded();
  await expect.poll(() => requests.length).toBeGreaterThan(0);
  expect(requests.filter((r) => r.beforeLoad)).toEqual([]);
  const marks = await page.evaluate(() => ({
    warming: performance.getEntriesByName('site:warming')[0]?.startTime ?? null,
    load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
      .loadEventStart,
  }));
  expect(marks.warming).not.toBeNull();
  expect(marks.warming!).toBeGreaterThanOrEqual(marks.load);
});

test('with Save-Data on, nothing is warmed', async ({ page }) => {
  await saveData(page);
  const requests = recordRemoteRequests(page);
  await page.goto('/');
  await ready(page);
  await page.locator(`main a[href="${TARGET.path}"]`).first().scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  // The page marks `site:idle` when it has loaded and gone idle, the moment warming would start
  // (and mark `site:warming`): from then on, nothing is warmed unless warming started.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('site:idle').length))
    .toBe(1);
  expect(await page.evaluate(() => performance.getEntriesByName('site:warming').length)).toBe(0);
  expect(requests).toEqual([]);
});
