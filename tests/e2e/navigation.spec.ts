import { expect, test } from '@playwright/test';
import { ready } from '../support/ready';
import { NOT_FOUND, hubPages, servicePages } from '../support/site';

test.describe('navigation', () => {
  test('the navbar links to About, Contact, the services page and every service page, grouped under its overview', async ({
    page,
  }) => {
    await page.goto('/');
    await ready(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    await expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    await nav.getByRole('button', { name: 'Services' }).click();
    // The desktop menu's links (a phone's panel lists each group's overview again, hidden here).
    const hrefs = await nav
      .locator('.mega a')
      .evaluateAll((links) =>
        links.filter((a) => !a.closest('.mega__phone')).map((a) => a.getAttribute('href')),
      );
    expect(hrefs.sort()).toEqual([...servicePages, ...hubPages].map((p) => p.path).sort());
    const groups = [
      'Custom Development',
      'Business Intelligence',
      'Data Analytics',
      'Enterprise',
      'Education',
      'Public Health',
    ];
    for (const group of groups) {
      await expect(nav.getByRole('list', { name: group })).toBeVisible();
    }
    // In the site table's order, as the footer and the home page's cards have them.
    // Each heading as the desktop menu draws it (a phone's toggle beside it is hidden here).
    expect(
      await nav.locator('.mega__title :is(.mega__title-link, .mega__title-text)').allTextContents(),
    ).toEqual(groups);
    expect(await page.getByRole('contentinfo').locator('summary').allTextContents()).toEqual(
      groups,
    );
  });

  test('the services page leads to each group’s overview and pages, and a breadcrumb leads back up', async ({
    page,
  }) => {
    await page.goto('/services');
    await ready(page);
    const main = page.getByRole('main');
    for (const hub of hubPages.filter((h) => h.group)) {
      await expect(main.getByRole('heading', { level: 2, name: hub.group })).toBeVisible();
      await expect(main.getByRole('link', { name: hub.group, exact: true })).toHaveAttribute(
        'href',
        hub.path,
      );
    }
    const links = await main
      .locator('.service-group a')
      .evaluateAll((all) => all.map((a) => a.getAttribute('href')));
    expect(links.sort()).toEqual(
      [...servicePages, ...hubPages.filter((h) => h.group)].map((p) => p.path).sort(),
    );
    await main.getByRole('link', { name: 'Data Analytics', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Analytics');
    await main.getByRole('link', { name: /^Big Data/ }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Big Data');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await crumbs.getByRole('link', { name: 'Data Analytics' }).click();
    await expect(page).toHaveURL(/\/services\/data-analytics$/);
    await crumbs.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Services');
  });

  test('every navbar link resolves to a real page', async ({ page, request }) => {
    await page.goto('/');
    await ready(page);
    const hrefs = await page
      .getByRole('navigation', { name: 'Main' })
      .locator('a[href^="/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') as string));
    expect(hrefs.length).toBeGreaterThanOrEqual(27);
    for (const href of new Set(hrefs)) {
      const res = await request.get(href);
      expect(res.status(), href).toBe(200);
    }
    // and in the browser, a sample across every group renders a real page, not the 404
    for (const href of [
      '/about',
      '/contact',
      ...servicePages.filter((_, i) => i % 4 === 0).map((p) => p.path),
    ]) {
      await page.goto(href);
      await ready(page);
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(NOT_FOUND.heading);
    }
  });

  test('clicking through the services menu within a group navigates without a reload and moves focus to the heading', async ({
    page,
  }) => {
    await page.goto('/services/data-analytics');
    await ready(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Services' }).click();
    await nav.getByRole('link', { name: 'Data Science' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Science');
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await expect(nav.locator('.mega')).toBeHidden();
  });

  test('from a shell page into a group, and from one group into another, the menu loads a new document', async ({
    page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [from, to, heading] of [
      ['/', 'Data Science', 'Data Science'],
      ['/services/data-analytics', 'Mobile App Development', 'Mobile App Development'],
    ] as const) {
      await page.goto(from);
      await ready(page);
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
      await nav.getByRole('button', { name: 'Services' }).click();
      await nav.getByRole('link', { name: to }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await ready(page);
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(
        undefined,
      );
    }
  });

  test('new navigation starts at the top; back restores the scroll position', async ({ page }) => {
    await page.goto('/services');
    await ready(page);
    const heading = await page.getByRole('heading', { level: 1 }).textContent();
    await page.evaluate(() => window.scrollTo({ top: 1500, behavior: 'instant' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const before = await page.evaluate(() => window.scrollY);
    await page.getByRole('contentinfo').getByRole('link', { name: 'About us' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading ?? '');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before - 50);
  });

  test('an anchor link scrolls to its target', async ({ page }) => {
    await page.goto('/about');
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Us');
    await page.goto('/#services');
    await ready(page);
    await expect(
      page.getByRole('heading', { level: 2, name: 'Services built around your outcomes' }),
    ).toBeInViewport();
  });

  test('the mobile menu opens, closes with Escape and returns focus', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await ready(page);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }),
    ).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
  });
});
