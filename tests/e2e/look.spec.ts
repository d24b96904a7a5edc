import { expect, test, type Page } from '@playwright/test';
import { ready } from '../support/ready';

/** A phone's screen: the height budgets below are counted in these. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 844 };

/** Opens a page with everything shown that scrolling would reveal. */
async function open(page: Page, path: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(path);
  await ready(page);
  await page.evaluate(() => document.fonts.ready);
}

// Every page's layout at 1280 and 390 px (and its reflow at 640 and 320) is checked in its one
// visit, in every-page.spec.ts.

test.describe('the services menu on a desktop', () => {
  for (const width of [1024, 1280, 1600]) {
    test(`its columns balance and it covers only what it needs at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await open(page, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Services' })
        .click();
      const menu = page.locator('.mega');
      await expect(menu).toBeVisible();
      const heights = await menu
        .locator('.mega__column')
        .evaluateAll((cols) => cols.map((c) => c.getBoundingClientRect().height));
      expect(heights.length).toBeGreaterThan(1);
      const [low, high] = [Math.min(...heights), Math.max(...heights)];
      expect(high, `column heights ${heights.map(Math.round).join(', ')}`).toBeLessThanOrEqual(
        (low * 4) / 3,
      );
      // Public Health sits in a column of its own, not under Custom Development.
      const column = (group: string) =>
        menu.locator('.mega__column', { has: page.getByText(group, { exact: true }) });
      expect(await column('Public Health').textContent()).not.toContain('Custom Development');
      const box = await menu.boundingBox();
      expect(box!.width * box!.height).toBeLessThan(width * 900 * 0.5);
    });
  }
});

test.describe("the footer's service groups", () => {
  test('fold on a phone: each group a control that shows its links', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await open(page, '/about');
    const footer = page.getByRole('contentinfo');
    const link = footer.getByRole('link', { name: 'Data Science' });
    await expect(link).toBeHidden();
    await footer.locator('summary', { hasText: 'Data Analytics' }).click();
    await expect(link).toBeVisible();
  });

  test('are open under plain titles on a desktop, with no focus stop that does nothing', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await open(page, '/about');
    const footer = page.getByRole('contentinfo');
    await expect(
      footer.getByText('Data Analytics', { exact: true }).filter({ visible: true }),
    ).toHaveCount(1);
    await expect(footer.getByRole('link', { name: 'Data Science' })).toBeVisible();
    // Every stop the keyboard makes in the footer is a link.
    await footer.getByRole('link').first().focus();
    const stops: string[] = [];
    for (let i = 0; i < 60; i++) {
      const stop = await page.evaluate(() => {
        const el = document.activeElement;
        return el?.closest('footer') ? el.tagName.toLowerCase() : null;
      });
      if (stop === null) break;
      stops.push(stop);
      await page.keyboard.press('Tab');
    }
    expect(stops.length).toBeGreaterThan(20);
    expect(new Set(stops)).toEqual(new Set(['a']));
  });
});
