import { expect, test } from '@playwright/test';
import { followMainLink, ready } from '../support/ready';
import { saveData } from '../support/save-data';
import { watchConsole } from '../support/console';
import { servedTitle } from '../support/page-checks';
import { NOT_FOUND, servicePages, shellPages } from '../support/site';

test.describe('every route of the spec', () => {
  // Each page is opened once, in every-page.spec.ts, to see its heading, breadcrumb and the title
  // it keeps once the client has taken over; here the titles are compared in the HTML the site
  // serves (plain requests, one pass).
  test('every page has its own document title', async ({ request }) => {
    const seen = new Map<string, string>();
    for (const { path } of [{ path: '/' }, ...shellPages, ...servicePages]) {
      const title = servedTitle(await (await request.get(path)).text());
      expect(title, path).not.toBe('');
      expect(seen.has(title) ? `${title} (also on ${seen.get(title)})` : title).toBe(title);
      seen.set(title, path);
    }
  });

  test('an unknown path answers 404 with the 404 page', async ({ page }) => {
    const errors = watchConsole(page);
    const response = await page.goto('/no-such-page');
    await ready(page);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND.heading);
    await expect(page.getByText(NOT_FOUND.text)).toBeVisible();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Back to home' }),
    ).toHaveAttribute('href', '/');
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Get in touch' }),
    ).toHaveAttribute('href', '/contact');
    expect(errors).toEqual([]);
  });

  test("an unknown path inside a remote's prefix shows the shell's 404 without loading the remote", async ({
    page,
  }) => {
    // Warming off: the footer's links into the group would otherwise be warmed once the page is idle.
    await saveData(page);
    const remoteRequests: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith('http://localhost:3001')) remoteRequests.push(req.url());
    });
    const response = await page.goto('/services/custom-dev/no-such-service');
    await ready(page);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND.heading);
    expect(remoteRequests).toEqual([]);
  });

  test('the 404 page links lead home and to the contact page', async ({ page }) => {
    await followMainLink(page, '/missing', 'Get in touch', '/contact');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    await followMainLink(page, '/missing', 'Back to home', '/');
  });
});
