import { expect, test } from '@playwright/test';
import { company } from '@site/ui/company';
import {
  servedHeading,
  servedMainWords,
  servedMeta,
  servedNavLinks,
  servedTitle,
} from '../support/page-checks';
import { NOT_FOUND, hubPages, servicePages, shellPages } from '../support/site';

const indexable = [{ path: '/', title: '' }, ...shellPages, ...servicePages];

test.describe('what a crawler reads without JavaScript', () => {
  // The HTML the site serves, read with plain requests in one pass: each page is opened in the
  // browser once, in every-page.spec.ts.
  test('every page has its title, description, canonical link, navigation, heading and text', async ({
    request,
  }) => {
    for (const spec of indexable) {
      const response = await request.get(spec.path);
      expect(response.status(), spec.path).toBe(200);
      const html = await response.text();
      const heading = servedHeading(html);
      if (spec.title) expect(heading, `${spec.path}: heading`).toBe(spec.title);
      else expect(heading, `${spec.path}: heading`).toBeTruthy();
      expect(servedTitle(html), `${spec.path}: title`).toContain(company.name);
      const description = servedMeta(html, 'description') ?? '';
      expect(description.length, `${spec.path}: description`).toBeGreaterThanOrEqual(50);
      expect(description.length, `${spec.path}: description`).toBeLessThanOrEqual(160);
      const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
      expect(canonical, `${spec.path}: canonical link`).toMatch(
        new RegExp(`${spec.path === '/' ? '/' : spec.path}$`),
      );
      expect(servedMeta(html, 'og:title'), `${spec.path}: og:title`).toMatch(/.+/);
      expect(
        servedNavLinks(html, 'Main').some(([, text]) => text === 'About'),
        `${spec.path}: the navigation's About link`,
      ).toBe(true);
      expect(servedMainWords(html), `${spec.path}: words in main`).toBeGreaterThan(150);
    }
  });

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test('an unknown path answers 404 with the 404 page, marked not to be indexed', async ({
      page,
    }) => {
      const response = await page.goto('/services/enterprise/nothing-here');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(NOT_FOUND.heading);
      await expect(page.getByText(NOT_FOUND.text)).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    });
  });

  test('every page has its own description', async ({ request }) => {
    const seen = new Map<string, string>();
    for (const spec of indexable) {
      const html = await (await request.get(spec.path)).text();
      const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
      expect(seen.get(description) ?? spec.path).toBe(spec.path);
      seen.set(description, spec.path);
    }
  });
});

test.describe('sitemap, robots and structured data', () => {
  test('sitemap.xml lists every indexable page, the services page and the group overviews too, and robots.txt points to it', async ({
    request,
  }) => {
    const robots = await (await request.get('/robots.txt')).text();
    const sitemapUrl = /^Sitemap:\s*(\S+)$/m.exec(robots)?.[1];
    expect(sitemapUrl).toMatch(/^https?:\/\/.+\/sitemap\.xml$/);
    const xml = await (await request.get('/sitemap.xml')).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    const pages = [...indexable, ...hubPages].map((p) => p.path);
    expect(locs.sort()).toEqual(pages.sort());
    expect(locs).toHaveLength(new Set(pages).size);
  });

  test('the services page and each group’s overview answer 200 with their own title and description', async ({
    request,
  }) => {
    for (const hub of hubPages) {
      const response = await request.get(hub.path);
      expect(response.status(), hub.path).toBe(200);
      const html = await response.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${hub.title}</h1>`));
      expect(html).toMatch(/<meta name="description" content="[^"]{50,160}"/);
    }
  });

  for (const path of ['/', '/contact']) {
    test(`${path} carries JSON-LD for the organisation and its office`, async ({ request }) => {
      const html = await (await request.get(path)).text();
      const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
      expect(json).toBeTruthy();
      const data = JSON.parse(json ?? '{}');
      expect(data['@context']).toBe('https://schema.org');
      expect(data.address.addressLocality).toBe('Centurion');
      expect(data.address.addressRegion).toBe('Gauteng');
      expect(data.openingHoursSpecification[0]).toMatchObject({ opens: '08:00', closes: '17:00' });
      expect(data.openingHoursSpecification[0].dayOfWeek).toEqual([
        'Monday',
        'Tuesday',
        'Wednesday',
        'Thursday',
        'Friday',
      ]);
      expect(typeof data.geo.latitude).toBe('number');
    });
  }

  test('responses are compressed and cached as a CDN would', async ({ request }) => {
    const page = await request.get('/about', { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(page.headers()['content-encoding']).toMatch(/br|gzip/);
    expect(page.headers()['cache-control']).toBe('no-cache');
    const html = await page.text();
    const asset = /"(\/assets\/main\.[0-9a-f]{10}\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const js = await request.get(asset!, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(js.headers()['cache-control']).toContain('immutable');
    expect(js.headers()['content-encoding']).toMatch(/br|gzip/);
    const manifest = await request.get('/remotes.json');
    expect(manifest.headers()['cache-control']).toBe('no-cache');
  });
});

test.describe('what a shared link shows', () => {
  for (const spec of [...indexable, { path: '/this-page-does-not-exist', title: '' }]) {
    test(`${spec.path}: its raw HTML declares a 1200×630 share card that answers as a PNG, and a large Twitter card`, async ({
      request,
    }) => {
      const html = await (await request.get(spec.path)).text();
      const meta = (key: string) =>
        new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];
      const image = meta('og:image') ?? '';
      expect(image).toMatch(/^https?:\/\/[^/]+\/.+\.png$/);
      expect(meta('og:image:width')).toBe('1200');
      expect(meta('og:image:height')).toBe('630');
      expect(meta('og:image:alt')).toContain(company.name);
      expect(meta('twitter:card')).toBe('summary_large_image');
      expect(meta('twitter:image:alt')).toBe(meta('og:image:alt'));
      const png = await request.get(image);
      expect(png.status()).toBe(200);
      expect(png.headers()['content-type']).toBe('image/png');
      expect(png.headers()['cache-control']).toContain('immutable');
      const body = await png.body();
      // The PNG's own header (IHDR) holds its width and height.
      expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([1200, 630]);
    });
  }
});
