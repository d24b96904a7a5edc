import { expect, test, type Page, type Request } from '@playwright/test';
import { saveData } from '../support/save-data';

/**
 * Warming: on a phone (touch, no hover), once the page has loaded and is idle, the links in the
 * viewport are made ready: a page of the document's own group gets its code, another owner's page
 * its HTML (speculation rules: a page load then finds its document fetched); never before `load`,
 * and never when the visitor asked to save data.
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

test('a first tap from a shell page into a group is a page load whose document was fetched ahead, and the shell page ran no group code', async ({
  page,
}) => {
  const requests = recordRemoteRequests(page);
  await page.goto('/');
  await ready(page);
  const link = page.locator(`main a[href="${TARGET.path}"]`).first();
  await link.scrollIntoViewIfNeeded();
  await expect(link).toHaveAttribute('data-page-load', 'warm');
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  expect(requests).toEqual([]);

  await link.tap();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(TARGET.title);
  await ready(page);
  const delivery = await page.evaluate(
    () =>
      (
        performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & {
          deliveryType?: string;
        }
      ).deliveryType,
  );
  // Not fetched at the tap: from the prefetch, or from the HTTP cache the prefetch filled (the
  // composed page may be kept), as this context never opened the page before.
  expect(['navigational-prefetch', 'cache']).toContain(delivery);
});

test('warming never starts before the load event', async ({ page }) => {
  await page.goto('/services/custom-dev');
  await ready(page);
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(1);
  const marks = await page.evaluate(() => ({
    warming: performance.getEntriesByName('site:warming')[0]?.startTime ?? null,
    load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
      .loadEventStart,
  }));
  expect(marks.warming).not.toBeNull();
  expect(marks.warming!).toBeGreaterThanOrEqual(marks.load);
});

test('warming waits until the main thread has gone a second without a long task', async ({
  page,
}) => {
  // A page still busy after load (a slow phone hydrating): a 300 ms task once the page is idle.
  await page.addInitScript(() => {
    addEventListener('load', () =>
      requestIdleCallback(() => {
        const until = performance.now() + 300;
        while (performance.now() < until);
        performance.mark('test:busy-until');
      }),
    );
  });
  await page.goto('/services/custom-dev');
  await ready(page);
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(1);
  const marks = await page.evaluate(() => ({
    busyUntil: performance.getEntriesByName('test:busy-until')[0]?.startTime ?? null,
    warming: performance.getEntriesByName('site:warming')[0]?.startTime ?? null,
  }));
  expect(marks.busyUntil).not.toBeNull();
  expect(marks.warming! - marks.busyUntil!).toBeGreaterThanOrEqual(1000);
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
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(0);
});
