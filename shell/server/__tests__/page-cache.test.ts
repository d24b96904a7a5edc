/**
 * @jest-environment node
 */
import zlib from 'node:zlib';
import { ComposedPage, PageCache } from '../pages/cache';

/** A page of `kb` kilobytes, as varied as a real page's markup so that it compresses like one. */
function html(path: string, kb: number): string {
  const words = ['services', 'data', 'analytics', 'health', 'education', 'custom', 'software'];
  let out = `<!doctype html><html><head><title>${path}</title></head><body><main><h1>${path}</h1>`;
  for (let i = 0; out.length < kb * 1024; i++)
    out += `<p id="p${i}">${words[i % words.length]} ${(i * 7919) % 1009} ${path}</p>`;
  return `${out}</main></body></html>`;
}

const cacheOf = (maxBytes: number, seen: boolean[] = []) =>
  new PageCache({
    maxEntries: 10_000,
    maxBytes,
    failedTtlMs: 1000,
    observe: (hit) => seen.push(hit),
  });

describe('a page held in the cache', () => {
  it('is sent as it was composed, in every coding and uncompressed', async () => {
    const text = html('/services/data-analytics', 80);
    const cache = cacheOf(64 * 1024 * 1024);
    const page = await cache.get(
      '/services/data-analytics',
      async () => new ComposedPage(200, text),
    );

    expect(page.length).toBe(Buffer.byteLength(text));
    expect(zlib.gunzipSync(page.encode('gzip')).toString()).toBe(text);
    expect(zlib.brotliDecompressSync(page.encode('br')).toString()).toBe(text);
    expect(page.body.toString()).toBe(text);
  });

  it('costs its compressed bytes, counted again when a coding is added', async () => {
    const cache = cacheOf(64 * 1024 * 1024);
    const page = await cache.get('/about', async () => new ComposedPage(200, html('/about', 80)));
    const gzip = page.encode('gzip').length;

    expect(cache.bytes).toBe(gzip);
    expect(cache.bytes).toBeLessThan(page.length / 4);

    const br = page.encode('br').length;
    await cache.get('/about', () => Promise.reject(new Error('composed again')));
    expect(cache.bytes).toBe(gzip + br);
  });
});

describe('the page cache at a thousand pages', () => {
  it('answers every page of a second crawl from the cache when the pages fit compressed', async () => {
    const paths = Array.from({ length: 1000 }, (_, i) => `/services/data-analytics/page-${i}`);
    const seen: boolean[] = [];
    // 12 MB: a thousand 40 KB pages do not fit as text (40 MB) but do as gzip.
    const cache = cacheOf(12 * 1024 * 1024, seen);
    let composed = 0;
    const crawl = () =>
      Promise.all(
        paths.map((p) =>
          cache.get(p, async () => {
            composed += 1;
            return new ComposedPage(200, html(p, 40));
          }),
        ),
      );

    await crawl();
    seen.length = 0;
    await crawl();

    expect(composed).toBe(paths.length);
    expect(seen.filter(Boolean).length / seen.length).toBe(1);
    expect(cache.size).toBe(paths.length);
  });
});
