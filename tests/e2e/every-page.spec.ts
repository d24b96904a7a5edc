/**
 * Every page of the site, opened once in the browser: one visit checks all that needs a browser
 * for that page. First as the visitor meets it (motion allowed, desktop width): the client adopts
 * the server's HTML without a console error or a layout shift, keeps its title, shows its heading,
 * breadcrumb, navigation, footer and call to action, and its accordions keep one panel open. Then
 * settled (reduced motion): no axe violation on the page or in any accordion panel, and its layout
 * at 1280, 390, 640 (200% zoom of a 1280 screen) and 320 CSS pixels (a narrow phone): nothing wider
 * than the screen, the picture whole, the phone height within its budget (with `PAGE_SHOTS=1`, a
 * full-page screenshot at 1280 and 390 px kept for a person to look through).
 *
 * The served HTML's words for crawlers (title, description, canonical link, heading, text) are read
 * without a browser, in seo.spec.ts.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from '../support/axe';
import { watchConsole } from '../support/console';
import {
  hasAccordions,
  overflowing,
  picture,
  resizeSettled,
  servedTitle,
  sidewaysScroll,
  takeOverResult,
  watchTakeOver,
} from '../support/page-checks';
import { ready } from '../support/ready';
import { hubPages, servicePages, shellPages, type SpecPage } from '../support/site';

const DESKTOP = { width: 1280, height: 844 };
/** A phone's screen: the height budgets below are counted in these. */
const PHONE = { width: 390, height: 844 };
/** Where only sideways scrolling is looked at: 200% zoom of a 1280 screen, and a narrow phone. */
const REFLOW = [640, 320];

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

interface PageUnderTest {
  path: string;
  /** The specification's page: its heading, title and (service pages) breadcrumb are checked. */
  spec?: SpecPage;
  /** Answered 404 with the 404 page. */
  missing?: boolean;
  /** The client's take-over and the document title it keeps are checked. */
  takeOver: boolean;
  /** Its axe scan and layout at every width are checked. */
  look: boolean;
  /** A service page whose content has accordions: each of their panels is scanned too. */
  accordions?: boolean;
}

const PAGES: PageUnderTest[] = [
  { path: '/', takeOver: true, look: true },
  ...shellPages.map((spec) => ({ path: spec.path, spec, takeOver: true, look: true })),
  ...servicePages.map((spec) => ({
    path: spec.path,
    spec,
    takeOver: true,
    look: true,
    accordions: hasAccordions(spec.path),
  })),
  ...hubPages.map((hub) => ({ path: hub.path, takeOver: false, look: true })),
  { path: '/no-such-page', missing: true, takeOver: false, look: true },
  // A path inside a group's prefix that the group does not have: the shell's 404 page.
  { path: '/services/data-analytics/no-such-page', missing: true, takeOver: true, look: false },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\&]/g, '\\$&');

/**
 * Full-page screenshots of every page at 1280 and 390 px, for a person to look through: taken when
 * the run asks for them (`PAGE_SHOTS=1`), into the test's folder under `tests/test-results/`. They
 * check nothing, and on two cores they added about a tenth to this file's time (282 s of test time
 * against 253 s).
 */
const SHOTS = process.env.PAGE_SHOTS === '1';

/** A full-page screenshot at the current width, attached to the test's results. */
async function attachScreenshot(page: Page, testInfo: TestInfo, path: string, width: number) {
  if (!SHOTS) return;
  const shot = testInfo.outputPath(`${width}${path.replace(/\//g, '_')}.png`);
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach(`${path} at ${width} px`, { path: shot, contentType: 'image/png' });
}

/** The first home-page promises: the hero heading, the six steps of the approach, the counters. */
async function expectHomeContent(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const step of ['Concept', 'Plan', 'Design', 'Development', 'Quality Check', 'Deployment']) {
    await expect(
      page.getByRole('heading', { level: 3, name: new RegExp(`${step}$`) }).first(),
      `the step ${step}`,
    ).toBeVisible();
  }
  const years = new Date().getFullYear() - 2008;
  await expect(page.getByText(`${years}+`, { exact: true }).first()).toBeAttached();
  await expect(page.getByText('2008', { exact: true }).first()).toBeAttached();
}

/** A service page: its call to action to /contact, and accordions that keep one panel open. */
async function expectServicePageParts(page: Page, path: string) {
  const cta = page.locator('.cta');
  await expect(cta.getByRole('heading', { level: 2 }), `${path}: the call to action`).toBeVisible();
  await expect(cta.getByRole('link')).toHaveAttribute('href', '/contact');
  for (const accordion of await page.locator('.accordion').all()) {
    const buttons = accordion.locator('.accordion__button');
    const count = await buttons.count();
    await expect(buttons.first(), `${path}: an accordion opens on its first panel`).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    if (count < 2) continue;
    await buttons.nth(1).click();
    await expect(buttons.nth(1)).toHaveAttribute('aria-expanded', 'true');
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'false');
    await expect(accordion.locator('.accordion__item.is-open')).toHaveCount(1);
    // Back as the page came, for the scans that follow.
    await buttons.first().click();
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'true');
  }
}

/**
 * Each accordion keeps one panel open, and accordions do not affect one another: the n-th panel of
 * every accordion is opened together and the open panels are scanned in one run.
 */
async function expectNoViolationsInPanels(page: Page, path: string) {
  const accordions = await page.locator('.accordion').all();
  expect(accordions.length, `${path} shows accordions`).toBeGreaterThan(0);
  const counts = await Promise.all(
    accordions.map((accordion) => accordion.locator('.accordion__button').count()),
  );
  for (let n = 0; n < Math.max(0, ...counts); n++) {
    const panels: string[] = [];
    for (const [i, accordion] of accordions.entries()) {
      if (n >= (counts[i] ?? 0)) continue;
      const button = accordion.locator('.accordion__button').nth(n);
      if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      const panel = `[id="${await button.getAttribute('aria-controls')}"]`;
      await expect(page.locator(panel)).toBeVisible();
      panels.push(panel);
    }
    await expectNoViolations(page, { include: panels, label: `${path} panels ${n + 1}` });
  }
}

/** At a phone's width: the picture whole or not shown, and the page within its height budget. */
async function expectPhoneLayout(page: Page, path: string) {
  // The page's picture is shown whole (its box has the drawing's proportions and nothing clips
  // it) or not at all: never cut into a strip.
  const art = await picture(page);
  if (art) {
    expect(art.ratio, `${path}: the picture's proportions`).toBeCloseTo(art.drawn, 1);
    expect(art, `${path}: the picture is whole`).toMatchObject({ cut: false, inside: true });
  }
  const screens = SCREEN_BUDGETS[path] ?? SCREENS_DEFAULT;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(
    height,
    `${path} at ${PHONE.width} px is ${(height / PHONE.height).toFixed(1)} screens`,
  ).toBeLessThanOrEqual(Math.round(screens * PHONE.height));
}

test.describe('every page, in one visit', () => {
  // The pages are independent of one another: shared among the workers, not one file's queue.
  test.describe.configure({ mode: 'parallel' });
  test.use({ viewport: DESKTOP });

  for (const p of PAGES) {
    test(`${p.path}`, async ({ page, request }, testInfo) => {
      // One visit does the work of many: an axe scan per accordion panel and four widths take a
      // while on a busy machine.
      test.setTimeout(p.accordions ? 180_000 : 120_000);
      const status = p.missing ? 404 : 200;

      await test.step('the client takes over the server-rendered page', async () => {
        const title = p.takeOver ? servedTitle(await (await request.get(p.path)).text()) : '';
        const errors = watchConsole(page);
        const warnings: string[] = [];
        page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
        if (p.takeOver) await watchTakeOver(page);
        const response = await page.goto(p.path);
        expect(response?.status(), `${p.path}: status`).toBe(status);
        await ready(page);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (p.takeOver) {
          await page.waitForLoadState('networkidle');
          const result = await takeOverResult(page);
          // The heading painted from the HTML is the very element the client goes on to use: the
          // page was hydrated, not thrown away and drawn again.
          expect(result, `${p.path}: hydrated`).toMatchObject({
            hadHeading: true,
            sameHeading: true,
            emptyRoot: false,
          });
          expect(result.cls, `${p.path}: layout shift`).toBeLessThan(0.02);
          expect(
            warnings.filter((m) => /hydrat|react/i.test(m)),
            `${p.path}: warnings`,
          ).toEqual([]);
          if (!p.missing) {
            // The title it was served with, kept once the client has taken over.
            expect(title, `${p.path}: served title`).not.toBe('');
            await expect(page).toHaveTitle(title);
          }
        }
        if (p.path === '/') await expectHomeContent(page);
        if (p.spec) {
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.spec.title);
          await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(p.spec.title)} \\| `));
          if (p.spec.group) {
            const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
            await expect(breadcrumb.getByRole('listitem')).toHaveText([
              'Home',
              'Services',
              p.spec.group,
              p.spec.title,
            ]);
            await expect(breadcrumb.getByRole('link', { name: 'Home' })).toHaveAttribute(
              'href',
              '/',
            );
            await expectServicePageParts(page, p.path);
          }
          await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
          await expect(page.getByRole('contentinfo')).toContainText(
            String(new Date().getFullYear()),
          );
        }
        expect(errors, `${p.path}: console errors`).toEqual([]);
      });

      if (!p.look) return;
      // Settled from here on: mid-fade, animate-on-scroll content is briefly translucent, and a
      // screenshot shows what scrolling would reveal.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.evaluate(() => document.fonts.ready);

      await test.step('no axe violations (WCAG 2.2 AA)', async () => {
        await expectNoViolations(page, { label: p.path });
        if (p.accordions) await expectNoViolationsInPanels(page, p.path);
      });

      await test.step(`at ${DESKTOP.width} px it fits the screen`, async () => {
        await attachScreenshot(page, testInfo, p.path, DESKTOP.width);
        expect(await overflowing(page), `${p.path}: elements wider than the screen`).toEqual([]);
      });

      await test.step(`at ${PHONE.width} px it fits its budget and the screen`, async () => {
        await resizeSettled(page, PHONE);
        await attachScreenshot(page, testInfo, p.path, PHONE.width);
        expect(await overflowing(page), `${p.path}: elements wider than the screen`).toEqual([]);
        await expectPhoneLayout(page, p.path);
      });

      for (const width of REFLOW) {
        await test.step(`at ${width} CSS pixels it does not scroll sideways`, async () => {
          await resizeSettled(page, { width, height: 800 });
          expect(await sidewaysScroll(page), `${p.path} at ${width} px`).toBeLessThanOrEqual(0);
        });
      }
    });
  }
});
