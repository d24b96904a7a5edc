/**
 * @jest-environment node
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startFixture, type SiteFixture } from './site-fixture';

/**
 * What every answer the site composes says about itself: its type, how long it may be kept, that
 * it is not to be sniffed, how it is compressed, and its ETag for conditional requests.
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers });

describe('the headers of a page', () => {
  test('a page is HTML in UTF-8, revalidated on every use, not to be sniffed, varying by encoding', async () => {
    const answer = await get('/about');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers.etag).toMatch(/^"[^"]+"$/);
  });

  test('the 404 page and the notice are revalidated too, and not sniffed', async () => {
    for (const url of ['/no-such-page', '/probe/broken']) {
      const answer = await get(url);
      expect([url, answer.headers['cache-control']]).toEqual([url, 'no-cache']);
      expect([url, answer.headers['x-content-type-options']]).toEqual([url, 'nosniff']);
    }
  });

  test('no page may be framed, a page sends only its origin elsewhere, and takes no other base, plugin or form target', async () => {
    for (const url of ['/about', '/no-such-page', '/probe/hello', '/contact']) {
      const answer = await get(url);
      expect([url, answer.headers['content-security-policy']]).toEqual([
        url,
        expect.stringContaining(
          "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'",
        ),
      ]);
      expect([url, answer.headers['x-frame-options']]).toEqual([url, 'DENY']);
      expect([url, answer.headers['referrer-policy']]).toEqual([
        url,
        'strict-origin-when-cross-origin',
      ]);
    }
  });

  test('no request is answered with a header that names the server or its framework', async () => {
    for (const url of ['/', '/no-such-page', '/favicon.svg', '/remotes.json']) {
      const answer = await get(url);
      expect([url, answer.headers['x-powered-by'], answer.headers.server]).toEqual([
        url,
        undefined,
        undefined,
      ]);
    }
  });

  test('the ETag changes with the page and stays the same for the same page', async () => {
    const about = await get('/about');
    expect((await get('/about')).headers.etag).toBe(about.headers.etag);
    expect((await get('/contact')).headers.etag).not.toBe(about.headers.etag);
  });
});

describe('compression', () => {
  test('brotli when the client takes it, with the same page inside', async () => {
    const plain = await get('/about', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/about', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });

  test('gzip when brotli is refused (br;q=0) or not offered', async () => {
    const plain = await get('/about', { 'accept-encoding': 'identity' });
    for (const accept of ['gzip', 'br;q=0, gzip', 'gzip;q=1, br;q=0']) {
      const answer = await get('/about', { 'accept-encoding': accept });
      expect([accept, answer.headers['content-encoding']]).toEqual([accept, 'gzip']);
      expect(gunzipSync(answer.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  test('no encoding the client refused: gzip;q=0 and br;q=0, or no Accept-Encoding at all', async () => {
    const refusals: Record<string, string>[] = [{ 'accept-encoding': 'gzip;q=0, br;q=0' }, {}];
    for (const headers of refusals) {
      const answer = await get('/about', headers);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body).toContain('<title>');
    }
  });

  test('the 404 page and the notice are compressed as well, keeping their status', async () => {
    const missing = await get('/no-such-page', { 'accept-encoding': 'gzip' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBe('gzip');
    const notice = await get('/probe/broken', { 'accept-encoding': 'br' });
    expect(notice.statusCode).toBe(503);
    expect(brotliDecompressSync(notice.rawPayload).toString('utf8')).toMatch(
      /temporarily unavailable/i,
    );
  });

  test('a small body (robots.txt) is sent as it is', async () => {
    const answer = await get('/robots.txt', { 'accept-encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body).toMatch(/^User-agent: \*/m);
  });
});

describe('conditional requests', () => {
  test('If-None-Match with the current ETag, strong, weak or in a list, is a 304 with no body', async () => {
    const { etag } = (await get('/about')).headers;
    for (const match of [String(etag), `W/${String(etag)}`, `"other", ${String(etag)}`, '*']) {
      const answer = await get('/about', { 'if-none-match': match });
      expect([match, answer.statusCode]).toEqual([match, 304]);
      expect(answer.body).toBe('');
      expect(answer.headers.etag).toBe(etag);
    }
  });

  test("another page's ETag, or a stale one, gets the whole page", async () => {
    const contact = (await get('/contact')).headers.etag;
    const answer = await get('/about', { 'if-none-match': String(contact) });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('<title>');
    expect((await get('/about', { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  test('the 404 page is never a 304, even to its own ETag: its status must reach the client', async () => {
    const first = await get('/no-such-page');
    const again = await get('/no-such-page', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(404);
    expect(again.body).toBe(first.body);
  });

  test('HEAD with the current ETag is a 304 too', async () => {
    const { etag } = (await get('/')).headers;
    const answer = await fixture.inject({
      method: 'HEAD',
      url: '/',
      headers: { 'if-none-match': String(etag) },
    });
    expect(answer.statusCode).toBe(304);
  });

  test('the manifest answers If-None-Match with 304 and the sitemap too', async () => {
    for (const url of ['/remotes.json', '/sitemap.xml', '/robots.txt']) {
      const { etag } = (await get(url)).headers;
      expect([url, etag]).toEqual([url, expect.stringMatching(/^"/)]);
      const again = await get(url, { 'if-none-match': String(etag) });
      expect([url, again.statusCode]).toEqual([url, 304]);
    }
  });
});
