/**
 * @jest-environment node
 */
import zlib from 'node:zlib';
import { LEADING_PAGES, readGroupRoutes, readManifest } from '@site/contracts';
import { grownGroup, startFixture, type SiteFixture } from './site-fixture';

/**
 * A page costs the same however many pages the site has: the same site with a group of 14 pages
 * and with a group of 1,001, asked for the same pages. Each page names a group's overview and its
 * leading pages; the rest is a group's whole route table, fetched at `/_routes/<group>`.
 */
let small: SiteFixture;
let large: SiteFixture;

beforeAll(async () => {
  [small, large] = await Promise.all([
    startFixture({ grown: grownGroup(14) }),
    startFixture({ grown: grownGroup(1001) }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([small?.close(), large?.close()]);
});

const get = (fixture: SiteFixture, url: string, encoding = 'identity') =>
  fixture.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });

/** The page's bytes as sent, raw and gzipped. */
async function bytes(fixture: SiteFixture, url: string) {
  const raw = await get(fixture, url);
  const gzip = await get(fixture, url, 'gzip');
  expect([raw.statusCode, gzip.statusCode]).toEqual([200, 200]);
  expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(raw.body);
  return { raw: raw.rawPayload.length, gzip: gzip.rawPayload.length };
}

const scriptOf = (html: string, id: string): unknown => {
  const text = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(
    html,
  )?.[1];
  return text === undefined ? undefined : JSON.parse(text);
};

describe('a page at 1,001 pages in a group against the same page at 14', () => {
  test.each([
    ['/', '/'],
    ['/services', '/services'],
    ['/probe/hello', '/probe/hello'],
    ['/grown/page-3', '/grown/page-3'],
    ['/grown/page-12', '/grown/page-12'],
    ['/grown/page-1000', '/grown/page-12'],
  ])('%s weighs at most 1.2× %s: raw and gzipped', async (largePath, smallPath) => {
    const before = await bytes(small, smallPath);
    const after = await bytes(large, largePath);
    expect(after.raw / before.raw).toBeLessThanOrEqual(1.2);
    expect(after.gzip / before.gzip).toBeLessThanOrEqual(1.2);
  });

  test('the 404 page weighs the same too', async () => {
    const [before, after] = [await get(small, '/nowhere'), await get(large, '/nowhere')];
    expect([before.statusCode, after.statusCode]).toEqual([404, 404]);
    expect(after.rawPayload.length / before.rawPayload.length).toBeLessThanOrEqual(1.2);
  });
});

describe('what a page names of a large group', () => {
  test(`the navbar and the footer name its overview, its first ${LEADING_PAGES} pages and the way to all the rest`, async () => {
    const html = (await get(large, '/about')).body;
    const linked = new Set([...html.matchAll(/href="(\/grown[^"]*)"/g)].map((m) => m[1]));
    expect([...linked].sort()).toEqual(
      ['/grown', ...Array.from({ length: LEADING_PAGES }, (_, i) => `/grown/page-${i + 1}`)].sort(),
    );
    // The navbar's desktop menu, its phone panel and the footer each lead to the overview for the
    // rest, by count.
    expect(html.match(/>All 1,000 Grown services</g)).toHaveLength(3);
    // A group of 13 pages past its overview names 10 of them, and the way to all 13.
    expect((await get(small, '/about')).body).toContain('>All 13 Grown services<');
  });

  test('the services page lists its leading pages and leads to its overview for the rest', async () => {
    const html = (await get(large, '/services')).body;
    expect(html.match(/href="\/grown\/page-\d+"/g)?.length).toBeLessThanOrEqual(3 * LEADING_PAGES);
    expect(html).toContain('>All 1,000 Grown services<');
  });

  test('the embedded manifest holds its overview, its leading pages and how many pages it has', async () => {
    const manifest = readManifest(
      scriptOf((await get(large, '/probe/hello')).body, 'site-manifest'),
    );
    const grown = manifest.remotes.find((r) => r.name === 'grown')!;
    expect(grown.routes.map((r) => r.path)).toEqual(grownGroup(LEADING_PAGES + 1).paths);
    expect(grown.pages).toEqual({ '/grown': 1001 });
    expect(manifest.unavailable).toEqual([]);
    // A group within the limit is carried whole, without counts.
    const probe = manifest.remotes.find((r) => r.name === 'probe')!;
    expect(probe.routes).toHaveLength(3);
    expect(probe.pages).toBeUndefined();
  });

  test('a page past the leading ones carries its own route beside the manifest; a leading page does not', async () => {
    const far = (await get(large, '/grown/page-700')).body;
    expect(scriptOf(far, 'site-route')).toEqual(grownGroup(1001).route!('/grown/page-700'));
    expect(far).toContain('Drawn by grown 1.0.0 at /grown/page-700');
    expect(scriptOf((await get(large, '/grown/page-2')).body, 'site-route')).toBeUndefined();
    expect(scriptOf((await get(small, '/grown/page-12')).body, 'site-route')).toBeDefined();
  });
});

describe("a group's whole route table", () => {
  test('is answered at /_routes/<group> for the manifest the visitor sees, as the browser reads it', async () => {
    const answer = await get(large, '/_routes/grown', 'gzip');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['content-encoding']).toBe('gzip');
    const table: unknown = JSON.parse(zlib.gunzipSync(answer.rawPayload).toString());
    const live = readManifest(JSON.parse((await get(large, '/remotes.json')).body));
    const grown = live.remotes.find((r) => r.name === 'grown')!;
    expect(readGroupRoutes(table, grown)).toEqual(grown.routes);
    expect(grown.routes).toHaveLength(1001);
    // Read for another version (a page composed before a deploy), it is not taken.
    expect(readGroupRoutes(table, { ...grown, version: '0.9.0' })).toBeUndefined();
  });

  test('answers 304 to a browser that holds it, and 404 with a reason for a group the site lacks', async () => {
    const first = await get(large, '/_routes/probe');
    const again = await large.inject({
      method: 'GET',
      url: '/_routes/probe',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    for (const url of ['/_routes/nothing', '/_routes/..%2Fremotes.json', '/_routes/%00']) {
      const missing = await get(large, url);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: expect.any(String) });
    }
  });
});
