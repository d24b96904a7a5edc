import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from '../support/axe';
import { ready } from '../support/ready';

/** Opens a page and waits for the client to have taken it over, and for its heading. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await ready(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** Whether the element that has focus is inside one that matches `selector`. */
function focusInside(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => Boolean(document.activeElement?.closest(s)), selector);
}

test.describe('WCAG 2.2 AA (axe-core) in the states a page reaches by use', () => {
  // Scans see the settled page: mid-fade, animate-on-scroll content is briefly translucent.
  test.use({ reducedMotion: 'reduce' });

  // Every page, and every accordion panel, is scanned in its one visit in every-page.spec.ts;
  // here, the states a page reaches by use.
  test('the services menu, open', async ({ page }) => {
    await open(page, '/');
    const services = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Services' });
    await services.click();
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    await expectNoViolations(page, { label: 'services menu open' });
  });

  test('the mobile menu, open', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, '/about');
    await page.getByRole('button', { name: 'Menu' }).click();
    const services = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Services' });
    await services.click();
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    await expectNoViolations(page, { label: 'mobile menu open' });
  });

  test('the contact form with all its errors showing', async ({ page }) => {
    await open(page, '/contact');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Please fill in the missing fields..')).toBeVisible();
    await expectNoViolations(page, { label: 'contact form errors' });
  });

  test('the notices of a group whose code cannot load: quiet over a page it sent, whole on a visit', async ({
    page,
  }) => {
    await page.route('http://localhost:3003/**/remoteEntry.js', (route) =>
      route.fulfill({ status: 503, body: '' }),
    );
    // The page the visitor arrives on keeps the server's text under a quiet status line.
    await page.goto('/services/enterprise/epm');
    await expect(page.getByRole('status').filter({ hasText: 'interactive parts' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Microsoft EPM');
    await expectNoViolations(page, { label: 'interactive parts unavailable' });
    // A page of the group visited from there has nothing to show but the notice.
    await page.getByRole('contentinfo').getByRole('link', { name: 'e-Learning' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is temporarily unavailable',
      { timeout: 30_000 },
    );
    await expectNoViolations(page, { label: 'remote unavailable' });
  });
});

test.describe('keyboard', () => {
  test('the skip link is the first stop and moves to the main content', async ({ page }) => {
    await open(page, '/about');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await focusInside(page, 'main')).toBe(true);
  });

  test('the navbar: open the services menu, move with arrows, follow a link, Escape returns focus', async ({
    page,
  }) => {
    await open(page, '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const services = nav.getByRole('button', { name: 'Services' });
    await services.focus();
    await page.keyboard.press('Enter');
    await expect(services).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(nav.getByRole('link', { name: 'All services' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(nav.getByRole('link', { name: 'Custom Development' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(services).toHaveAttribute('aria-expanded', 'false');
    await expect(services).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('End');
    await expect(nav.getByRole('link', { name: 'Analytics & Reporting' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Data Analytics & Reporting');
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  });

  test('an accordion page: Tab reaches the headers, arrows move, Enter and Space toggle, one panel open', async ({
    page,
  }) => {
    await open(page, '/services/enterprise/enterprise-support');
    const buttons = page.locator('.accordion').first().locator('.accordion__button');
    await buttons.first().focus();
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(buttons.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(buttons.nth(1)).toHaveAttribute('aria-expanded', 'true');
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('End');
    await page.keyboard.press('Space');
    await expect(buttons.last()).toHaveAttribute('aria-expanded', 'true');
    await expect(buttons.nth(1)).toHaveAttribute('aria-expanded', 'false');
    // the focused header is never hidden under the sticky navbar
    const [top, navBottom] = await page.evaluate(() => [
      document.activeElement!.getBoundingClientRect().top,
      document.querySelector('.navbar')!.getBoundingClientRect().bottom,
    ]);
    expect(top).toBeGreaterThanOrEqual(navBottom);
  });

  test('the contact form by keyboard alone: focus goes to the first invalid field, labels and descriptions are tied', async ({
    page,
  }) => {
    await open(page, '/contact');
    await page.getByRole('textbox', { name: 'Full name' }).focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Email address' })).toBeFocused();
    await page.keyboard.type('not-an-address');
    await page.keyboard.press('Tab');
    await expect(page.getByText('Please enter a valid email address..')).toBeVisible();
    const email = page.getByRole('textbox', { name: 'Email address' });
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/Please enter a valid email address\.\./);
    await page.getByRole('button', { name: 'Send message' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Please fill in the missing fields..')).toBeVisible();
    await expect(email).toBeFocused();
  });

  test('the map is not a keyboard trap', async ({ page }) => {
    await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 404 }));
    await open(page, '/contact');
    const map = page.getByRole('region', { name: 'Map of our office in Centurion' });
    await map.scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Show the map' }).click();
    await expect(page.locator('.leaflet-container')).toBeAttached();
    await page.locator('.leaflet-container').focus();
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await focusInside(page, '.leaflet-container')).toBe(false);
  });
});

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('counters show their final values at once, nothing animates on scroll, no smooth scrolling', async ({
    page,
  }) => {
    await open(page, '/services/custom-dev/frontend-dev');
    const values = await page.getByTestId('counter-value').allTextContents();
    expect(values).toEqual(['01', '02', '03', '04']);
    await open(page, '/');
    // Animate-on-scroll would have marked its elements once the page went idle (`site:idle`).
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('site:idle').length))
      .toBe(1);
    expect(await page.locator('.aos-init').count()).toBe(0);
    expect(
      await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior),
    ).toBe('auto');
    const years = String(new Date().getFullYear() - 2008);
    // The founding year is a date, never a counter; the years since count.
    expect(await page.getByTestId('counter-value').allTextContents()).toEqual([`${years}+`]);
    await expect(page.getByText('2008', { exact: true })).toBeVisible();
  });

  test('with motion allowed, counters count up and stop within five seconds', async ({
    browser,
  }) => {
    const context = await browser.newContext({ reducedMotion: 'no-preference' });
    const page = await context.newPage();
    await open(page, '/services/custom-dev/backend-dev');
    const counters = page.getByTestId('counter-value');
    await counters.first().scrollIntoViewIfNeeded();
    await expect(counters.last()).toHaveText('04', { timeout: 5_000 });
    await context.close();
  });
});

test('the page language is set and images have text alternatives', async ({ page }) => {
  await open(page, '/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const unlabelled = await page.evaluate(
    () =>
      Array.from(document.querySelectorAll('img, svg')).filter(
        (el) =>
          el.getAttribute('aria-hidden') !== 'true' &&
          !el.getAttribute('alt') &&
          !el.getAttribute('aria-label'),
      ).length,
  );
  expect(unlabelled).toBe(0);
});
