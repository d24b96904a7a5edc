import { expect, test, type Page } from '@playwright/test';
import { ready } from '../support/ready';
import { hubPages, servicePages, shellPages } from '../support/site';

/** A phone's screen: the height budgets below are counted in these. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 844 };

/** How tall each page may be on a phone, in screens; a page not listed gets the default. */
const SCREENS_DEFAULT = 6;
const SCREEN_BUDGETS: Readonly<Record<string, number>> = {
  // Home carries the whole six-step explanation that other pages link to, the six practices, six
  // reasons to choose us, the track record and the eighteen-tile technology wall, each as dense as
  // it reads well on a phone (it was 7.1 screens before the figures joined the intro in one row).
  '/': 6.25,
  // The services page lists every page of every group with its description.
  '/services': 6.75,
};

const ROUTES = [
  '/',
  ...shellPages.map((p) => p.path),
  ...servicePages.map((p) => p.path),
  ...hubPages.map((p) => p.path),
  '/no-such-page',
];

/**
 * The page's picture as laid out: its box, the box of what holds it, and whether it can be cut
 * (`slice`), or null when the page shows none at this width.
 */
const picture = (page: Page) =>
  page.evaluate(() => {
    const svg = document.querySelector<SVGSVGElement>('.hero__art svg, .not-found__art svg');
    if (!svg || !svg.checkVisibility()) return null;
    const box = svg.getBoundingClientRect();
    const frame = svg.parentElement!.getBoundingClientRect();
    const [, , w, h] = (svg.getAttribute('viewBox') ?? '0 0 1 1').split(' ').map(Number);
    return {
      ratio: box.width / box.height,
      drawn: w! / h!,
      cut: /slice/.test(svg.getAttribute('preserveAspectRatio') ?? ''),
      inside:
        box.top >= frame.top - 1 &&
        box.bottom <= frame.bottom + 1 &&
        box.left >= 0 &&
        box.right <= document.documentElement.clientWidth + 1,
    };
  });

/** Opens a page with everything shown that scrolling would reveal. */
async function open(page: Page, path: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(path);
  await ready(page);
  await page.evaluate(() => document.fonts.ready);
}

/**
 * Elements cut by the viewport's right or left edge (the page would scroll sideways). One placed
 * wholly off to the left is hidden on purpose (the contact form's trap field), not overflowing.
 */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || el.closest('.visually-hidden, .skip-link, [hidden]')) return false;
        return box.right > width + 1 || (box.left < -1 && box.right > 0);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
  });

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`every route at ${viewport.width} px`, () => {
    test.use({ viewport });
    for (const path of ROUTES) {
      test(`${path} fits its budget and the screen`, async ({ page }, testInfo) => {
        await open(page, path);
        const shot = testInfo.outputPath(`${viewport.width}${path.replace(/\//g, '_')}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        await testInfo.attach(`${path} at ${viewport.width} px`, {
          path: shot,
          contentType: 'image/png',
        });
        expect(await overflowing(page), 'elements wider than the screen').toEqual([]);
        if (viewport === PHONE) {
          // The page's picture is shown whole (its box has the drawing's proportions and nothing
          // clips it) or not at all: never cut into a strip.
          const art = await picture(page);
          if (art) {
            expect(art.ratio, `${path}: the picture's proportions`).toBeCloseTo(art.drawn, 1);
            expect(art, `${path}: the picture is whole`).toMatchObject({
              cut: false,
              inside: true,
            });
          }
          const screens = SCREEN_BUDGETS[path] ?? SCREENS_DEFAULT;
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          expect(
            height,
            `${path} at 390 px is ${(height / PHONE.height).toFixed(1)} screens`,
          ).toBeLessThanOrEqual(Math.round(screens * PHONE.height));
        }
      });
    }
  });
}

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
