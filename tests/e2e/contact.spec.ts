import { expect, test } from '@playwright/test';
import { company } from '@site/ui/company';
import { ready } from '../support/ready';
import { releaseRoutes } from '../support/routes';
import { simpleParser, type AddressObject } from 'mailparser';
import { expectNoViolations } from '../support/axe';
import { expectOtherWays } from '../support/other-ways';
import { TestDeployment } from '../support/deployment';
import { receivedMessages } from '../support/smtp';

/** The received messages whose subject has `subject`, parsed. */
const withSubject = async (subject: string) =>
  (await Promise.all(receivedMessages().map((raw) => simpleParser(raw)))).filter((m) =>
    m.subject?.includes(subject),
  );

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value);

test.describe('the contact page', () => {
  test('shows the address, hours, time zone, social links and the map with its marker', async ({
    page,
  }) => {
    // Map tiles come from a local fixture: a blank tile for every request.
    await page.route(/tile\.openstreetmap\.org/, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'image/png',
        body: Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
          'base64',
        ),
      }),
    );
    await page.goto('/contact');
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
    const details = page.locator('.contact-details');
    await expect(details).toContainText('Centurion, Gauteng');
    await expect(details).toContainText('South Africa');
    await expect(details).toContainText('Monday to Friday, 8am to 5pm');
    await expect(details).toContainText(company.timeZone.label);
    await expect(details).toContainText(company.phone.display);
    for (const name of ['LinkedIn', 'X', 'Facebook', 'GitHub']) {
      await expect(details.getByRole('link', { name, exact: true })).toHaveAttribute(
        'href',
        /^https:\/\//,
      );
    }
    const map = page.locator('.map-frame');
    await map.scrollIntoViewIfNeeded();
    await expect(map).toHaveCSS('height', '500px');
    await map.getByRole('button', { name: 'Show the map' }).click();
    await expect(page.locator('.leaflet-marker-icon')).toHaveAttribute('title', company.name);
    await expect(page.locator('.leaflet-popup-content')).toContainText('Centurion');
    await expect(page.locator('.leaflet-control-attribution')).toContainText('OpenStreetMap');
  });

  test('Leaflet and its tiles are requested only when the visitor asks for the map', async ({
    page,
  }) => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 404 }));
    await page.goto('/');
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(requests.filter((u) => /leaflet|tile\.openstreetmap/.test(u))).toEqual([]);
    await page.goto('/contact');
    await ready(page);
    await page.locator('.map-frame').scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
    expect(requests.filter((u) => /leaflet|tile\.openstreetmap/.test(u))).toEqual([]);
    await page.getByRole('button', { name: 'Show the map' }).click();
    await expect.poll(() => requests.some((u) => /tile\.openstreetmap/.test(u))).toBe(true);
  });

  test('when the tiles fail, the map says so and the address and a map link still show', async ({
    page,
  }) => {
    await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('failed'));
    await page.goto('/contact');
    await ready(page);
    await page.locator('.map-frame').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Show the map' }).click();
    await expect(page.locator('.map-frame')).toContainText('The map could not be loaded just now.');
    await expect(
      page.locator('.map-frame').getByRole('link', { name: 'Open the location in OpenStreetMap' }),
    ).toBeVisible();
  });

  test('a visitor sends a message, sees the confirmation, and the company mailbox receives it', async ({
    page,
  }) => {
    const subject = `Learning platform for six schools ${Date.now()}`;
    await page.goto('/contact');
    await ready(page);
    await page.getByRole('textbox', { name: 'Full name' }).fill('Thandi Nkosi');
    await page.getByRole('textbox', { name: 'Email address' }).fill('thandi.nkosi@example.co.za');
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('We run six schools in Pretoria.\nCan we talk next week?');
    // The form's time trap is short in the tests' deployment (global-setup.ts): no wait to look human.
    await page.getByRole('button', { name: 'Send message' }).click();

    await expect(page.getByText('Your message has been sent..')).toBeVisible();
    // The confirmation takes the form's place.
    await expect(page.getByRole('button', { name: 'Send message' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Full name' })).toHaveCount(0);
    await expectNoViolations(page, { label: 'after a successful send' });

    // Its own message (another test's may arrive in between).
    await expect
      .poll(async () => (await withSubject(subject)).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const parsed = await Promise.all(receivedMessages().map((raw) => simpleParser(raw)));
    const mail = parsed.find((m) => m.subject?.includes(subject));
    expect(mail).toBeTruthy();
    expect(addresses(mail!.replyTo)).toEqual([
      { address: 'thandi.nkosi@example.co.za', name: 'Thandi Nkosi' },
    ]);
    expect(addresses(mail!.from)[0]?.address).not.toBe('thandi.nkosi@example.co.za');
    expect(mail!.text).toContain('We run six schools in Pretoria.');
    expect(mail!.text).toContain('Can we talk next week?');
  });

  test("the form's code arrives after the page has loaded, and a message sent before it is held and then sent", async ({
    page,
  }) => {
    // The form's code (its form and validation libraries) is held back until the test lets it go.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (/contact-form\./.test(route.request().url()) || body.includes('shouldUnregister')) {
        held.push(route.request().url());
        await released;
      }
      await route.fulfill({ response, body });
    });
    const subject = `Typed before the form was ready ${Date.now()}`;
    await page.goto('/contact');
    await ready(page);
    await page.getByRole('textbox', { name: 'Full name' }).fill('Pieter van Wyk');
    await page.getByRole('textbox', { name: 'Email address' }).fill('pieter@example.co.za');
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await page.getByRole('textbox', { name: 'Message' }).fill('Sent before the page was ready.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    // Not submitted by the browser as a bare form: still on the page, nothing in the address bar.
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByText('Your message has been sent..')).toHaveCount(0);

    release();
    await expect(page.getByText('Your message has been sent..')).toBeVisible();
    // Its own message (another test's may arrive in between).
    await expect
      .poll(async () => (await withSubject(subject)).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const parsed = await Promise.all(receivedMessages().map((raw) => simpleParser(raw)));
    const mail = parsed.find((m) => m.subject?.includes(subject));
    expect(mail?.text).toContain('Sent before the page was ready.');
    expect(addresses(mail?.replyTo)).toEqual([
      { address: 'pieter@example.co.za', name: 'Pieter van Wyk' },
    ]);
    await releaseRoutes(page);
  });

  test("the form's code is not part of the first load: it is fetched after the load event", async ({
    page,
  }) => {
    await page.goto('/contact');
    await ready(page);
    const timing = () =>
      page.evaluate(() => {
        const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        const form = performance
          .getEntriesByType('resource')
          .find((entry) => /\/assets\/contact-form\./.test(entry.name));
        return form ? { loadEnd: nav!.loadEventEnd, formStart: form.startTime } : null;
      });
    await expect.poll(timing).not.toBeNull();
    const { loadEnd, formStart } = (await timing())!;
    expect(loadEnd).toBeGreaterThan(0);
    expect(formStart).toBeGreaterThanOrEqual(loadEnd);
    // Once here, the form validates as before.
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Please enter your name..')).toBeVisible();
  });

  test('with the mail-service down, the visitor sees that the message was not sent and keeps the input', async ({
    page,
  }) => {
    const deployment = new TestDeployment();
    try {
      await deployment.writeManifest({});
      const site = await deployment.startSite(3140, { apiTarget: 'http://127.0.0.1:3149' });
      await page.goto(`${site}/contact`);
      await ready(page);
      await page.getByRole('textbox', { name: 'Full name' }).fill('Pieter van Wyk');
      await page.getByRole('textbox', { name: 'Email address' }).fill('pieter@example.com');
      await page.getByRole('textbox', { name: 'Subject' }).fill('SharePoint migration');
      await page
        .getByRole('textbox', { name: 'Message' })
        .fill('We have 2 TB of documents to move.');
      await page.getByRole('button', { name: 'Send message' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'Your message was not sent' });
      await expect(notice).toBeVisible();
      await expectOtherWays(notice);
      await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(
        'We have 2 TB of documents to move.',
      );
      await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled();
      await expect(page.getByText('Your message has been sent..')).toHaveCount(0);
    } finally {
      await deployment.close();
    }
  });
});
