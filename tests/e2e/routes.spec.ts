import { expect, test } from '@playwright/test';
import { followMainLink, ready } from '../support/ready';
import { saveData } from '../support/save-data';
import { watchConsole } from '../support/console';
import { NOT_FOUND, servicePages, shellPages } from '../support/site';

/** The `<title>` of a page's HTML, as the browser reads it (the markup's entities decoded). */
function servedTitle(html: string): string {
  const raw = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  return raw
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&');
}

test.describe('every route of the spec', () => {
  test('the home page shows its hero heading, the approach and the counters', async ({ page }) => {
    const errors = watchConsole(page);
    const response = await page.goto('/');
    await ready(page);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const step of [
      'Concept',
      'Plan',
      'Design',
      'Development',
      'Quality Check',
      'Deployment',
    ]) {
      await expect(
        page.getByRole('heading', { level: 3, name: new RegExp(`${step}$`) }).first(),
      ).toBeVisible();
    }
    const years = new Date().getFullYear() - 2008;
    await expect(page.getByText(`${years}+`, { exact: true }).first()).toBeAttached();
    await expect(page.getByText('2008', { exact: true }).first()).toBeAttached();
    expect(errors).toEqual([]);
  });

  for (const spec of [...shellPages, ...servicePages]) {
    test(`${spec.path} shows "${spec.title}"`, async ({ page }) => {
      const errors = watchConsole(page);
      const response = await page.goto(spec.path);
      await ready(page);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(spec.title);
      await expect(page).toHaveTitle(
        new RegExp(`^${spec.title.replace(/[.*+?^${}()|[\]\\&]/g, '\\$&')} \\| `),
      );
      if (spec.group) {
        const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');
        await expect(crumbs).toHaveText(['Home', 'Services', spec.group, spec.title]);
        await expect(
          page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }),
        ).toHaveAttribute('href', '/');
      }
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
      expect(errors).toEqual([]);
    });
  }

  // Twenty-eight page loads in one test outlasted its limit on a busy machine. The titles are
  // compared in the HTML the site serves (plain requests, one pass), and each page is opened in a
  // test of its own to see that it keeps that title once the client has taken it over.
  const titledPages = [{ path: '/' }, ...shellPages, ...servicePages];

  test('every page has its own document title', async ({ request }) => {
    const seen = new Map<string, string>();
    for (const { path } of titledPages) {
      const title = servedTitle(await (await request.get(path)).text());
      expect(title, path).not.toBe('');
      expect(seen.has(title) ? `${title} (also on ${seen.get(title)})` : title).toBe(title);
      seen.set(title, path);
    }
  });

  for (const { path } of titledPages) {
    test(`${path} keeps its document title once the client has taken over`, async ({
      page,
      request,
    }) => {
      const title = servedTitle(await (await request.get(path)).text());
      await page.goto(path);
      await ready(page);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page).toHaveTitle(title);
    });
  }

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
