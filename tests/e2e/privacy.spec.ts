/**
 * What a prospect is told before and after writing: the privacy notice (in the sitemap, linked
 * from the footer and beside Send, with and without JavaScript, its retention periods those the
 * mail-service runs with), the map that asks before it calls a third party, and another way to
 * write when a message cannot be sent.
 */
import { expect, test, type Page } from '@playwright/test';
import { company } from '@site/ui/company';
import { RETENTION_DEFAULTS } from '@site/contracts/contact/retention';
import { TestDeployment } from '../support/deployment';
import { expectOtherWays } from '../support/other-ways';
import { ready } from '../support/ready';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 844 };
const TILES = /tile\.openstreetmap\.org/;

/** The notice's retention rows, by the mail-service setting each one states. */
async function retentionRows(page: Page): Promise<Record<string, string>> {
  const rows = page.locator('[data-figure]');
  await expect(rows).toHaveCount(4);
  return Object.fromEntries(
    await rows.evaluateAll((dds) =>
      dds.map((dd) => [dd.getAttribute('data-figure'), dd.textContent ?? '']),
    ),
  );
}

for (const [name, size] of [
  ['a phone', PHONE],
  ['a desktop', DESKTOP],
] as const) {
  test.describe(`the privacy notice on ${name}`, () => {
    test.use({ viewport: size });

    test('is in the sitemap and linked from the footer and beside Send', async ({
      page,
      request,
    }) => {
      const sitemap = await (await request.get('/sitemap.xml')).text();
      expect(sitemap).toMatch(/<loc>[^<]*\/privacy<\/loc>/);

      await page.goto('/contact');
      await ready(page);
      const form = page.locator('form.contact-form');
      const beside = form.locator('.contact-form__actions').getByRole('link', {
        name: 'privacy notice',
      });
      await expect(beside).toHaveAttribute('href', '/privacy');
      await expect(
        page.getByRole('contentinfo').getByRole('link', { name: 'Privacy notice' }),
      ).toHaveAttribute('href', '/privacy');

      await beside.click();
      await expect(page).toHaveURL(/\/privacy$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Notice');
      for (const heading of [
        'What the contact form collects, and why',
        'Who receives it',
        'How long we keep it',
        'A copy of your information, or its erasure',
        'The map on the contact page',
      ])
        await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
      await expect(page.getByRole('main')).toContainText('POPIA');
      await expect(
        page.getByRole('main').getByRole('link', { name: company.informationOfficer.email }),
      ).toHaveAttribute('href', `mailto:${company.informationOfficer.email}`);
      await expect(page.getByRole('main')).toContainText('OpenStreetMap Foundation');
      await page.screenshot({ path: `test-results/screens/privacy-${size.width}.png` });
    });

    test('states the retention periods the mail-service runs with', async ({ page, request }) => {
      const figures = (await (await request.get('/api/privacy')).json()) as Record<string, number>;
      await page.goto('/privacy');
      await ready(page);
      const rows = await retentionRows(page);
      expect(rows.retentionDays).toContain(`${figures.retentionDays} days after delivery`);
      expect(rows.spamRetentionDays).toContain(`Deleted ${figures.spamRetentionDays} days`);
      expect(rows.queueLifetimeSeconds).toContain(
        `up to ${figures.queueLifetimeSeconds! / 86_400} days`,
      );
      expect(rows.rateLimitWindowSeconds).toContain(
        `after ${figures.rateLimitWindowSeconds! / 60} minutes`,
      );
    });
  });
}

test.describe('the privacy notice follows the mail-service', () => {
  test.use({ viewport: PHONE });

  test('a changed retention setting changes the notice', async ({ page }) => {
    test.setTimeout(120_000);
    const deployment = new TestDeployment();
    try {
      await deployment.writeManifest({});
      const mail = await deployment.startMailService(3461, 'http://localhost:3460', {
        RETENTION_DAYS: String(RETENTION_DEFAULTS.retentionDays + 15),
        SPAM_RETENTION_DAYS: '3',
      });
      const site = await deployment.startSite(3460, { apiTarget: mail });
      // As the site server renders it (what a visitor without JavaScript and a crawler read).
      const served = await (await page.request.get(`${site}/privacy`)).text();
      expect(served).toContain(`${RETENTION_DEFAULTS.retentionDays + 15} days after delivery`);
      expect(served).toContain('Deleted 3 days');
      await page.goto(`${site}/privacy`);
      await ready(page);
      await expect(page.locator('[data-figure="retentionDays"]')).toContainText(
        `${RETENTION_DEFAULTS.retentionDays + 15} days after delivery`,
      );
      await expect(page.locator('[data-figure="spamRetentionDays"]')).toContainText(
        'Deleted 3 days',
      );
    } finally {
      await deployment.close();
    }
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE });

  test('the form links to the notice, and the map box shows the address, never a loading message', async ({
    page,
  }) => {
    await page.goto('/contact');
    await expect(
      page.locator('form.contact-form').getByRole('link', { name: 'privacy notice' }),
    ).toHaveAttribute('href', '/privacy');
    const map = page.locator('.map-frame');
    await expect(map).toContainText(company.address.street);
    await expect(
      map.getByRole('link', { name: 'Open the location in OpenStreetMap' }),
    ).toBeVisible();
    await expect(map).not.toContainText('Loading the map');
    await expect(map.getByRole('button')).toHaveCount(0);
  });
});

for (const [name, size] of [
  ['a phone', PHONE],
  ['a desktop', DESKTOP],
] as const) {
  test.describe(`the contact page's map on ${name}`, () => {
    test.use({ viewport: size });

    test('requests no tile until the visitor asks for the map, and says whose tiles they are', async ({
      page,
    }) => {
      const tiles: string[] = [];
      await page.route(TILES, (route) => {
        tiles.push(route.request().url());
        return route.fulfill({ status: 404 });
      });
      await page.goto('/contact');
      await ready(page);
      const map = page.locator('.map-frame');
      await map.scrollIntoViewIfNeeded();
      await expect(map).toContainText(company.address.street);
      await expect(map).toContainText(company.hours.label);
      await expect(
        map.getByRole('link', { name: 'Open the location in OpenStreetMap' }),
      ).toBeVisible();
      await expect(map).toContainText('OpenStreetMap');
      const show = map.getByRole('button', { name: 'Show the map' });
      await expect(show).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(tiles).toEqual([]);
      await page.screenshot({ path: `test-results/screens/map-asked-${size.width}.png` });

      await show.click();
      await expect.poll(() => tiles.length).toBeGreaterThan(0);
      await expect(page.locator('.leaflet-control-attribution')).toContainText('OpenStreetMap');
    });
  });
}

test.describe('a message that cannot be sent', () => {
  test.use({ viewport: PHONE });

  test('over the limit, the visitor is given the company’s address and phone to write instead', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const deployment = new TestDeployment();
    try {
      await deployment.writeManifest({});
      const mail = await deployment.startMailService(3463, 'http://localhost:3462', {
        RATE_LIMIT_MAX: '1',
        FORM_MIN_FILL_MS: '100',
      });
      const site = await deployment.startSite(3462, { apiTarget: mail });
      const send = async (subject: string) => {
        await page.goto(`${site}/contact`);
        await ready(page);
        await page.getByRole('textbox', { name: 'Full name' }).fill('Lerato Dlamini');
        await page.getByRole('textbox', { name: 'Email address' }).fill('lerato@example.co.za');
        await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
        await page.getByRole('textbox', { name: 'Message' }).fill('Could we meet next week?');
        await page.getByRole('button', { name: 'Send message' }).click();
      };
      await send('First');
      await expect(page.getByTestId('message-sent')).toBeVisible();
      await send('Second');
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('several messages have come from your connection');
      await expectOtherWays(alert);
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({ path: 'test-results/screens/rate-limited-390.png' });
    } finally {
      await deployment.close();
    }
  });
});
