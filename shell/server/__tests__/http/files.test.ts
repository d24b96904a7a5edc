/**
 * @jest-environment node
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { SHELL_DIST, SITE_URL, startFixture, type SiteFixture } from './site-fixture';

/** What the site says of itself (/remotes.json, /sitemap.xml, /robots.txt) and the shell's files. */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers });

const ASSETS = path.join(SHELL_DIST, 'public', 'assets');
/** A hashed script of the shell's build that has a brotli copy beside it. */
const hashedScript = () => {
  const names = readdirSync(ASSETS);
  const name = names.find((n) => /\.[0-9a-f]{10}\.js$/.test(n) && names.includes(`${n}.br`));
  if (!name) throw new Error(`no hashed script with a .br copy in ${ASSETS}`);
  return name;
};

describe('/remotes.json', () => {
  test('is the live manifest as JSON, revalidated on every use', async () => {
    const answer = await get('/remotes.json');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    const manifest = answer.json<{ remotes: { name: string; version: string; entry: string }[] }>();
    expect(manifest.remotes.map((r) => `${r.name}@${r.version}`).sort()).toEqual([
      'other@1.0.0',
      'probe@1.0.0',
    ]);
    expect(manifest.remotes[0]!.entry.startsWith(fixture.origin)).toBe(true);
  });

  test('is the manifest the deploy API reads, byte for byte', async () => {
    const live = await fixture.site.manifest();
    expect((await get('/remotes.json')).body).toBe(live.text);
  });
});

describe('/sitemap.xml', () => {
  test("lists the shell's pages and every group's under the site's public origin", async () => {
    const answer = await get('/sitemap.xml');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    const locs = [...answer.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    for (const p of ['/', '/about', '/services', '/contact', '/probe/hello', '/other/page']) {
      expect(locs).toContain(`${SITE_URL}${p}`);
    }
    expect(answer.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  test('leaves out the 404 page and anything that is no page', async () => {
    const { body } = await get('/sitemap.xml');
    expect(body).not.toContain('/404');
    expect(body).not.toContain('/_');
    expect(body).not.toContain('/assets');
  });
});

describe('/robots.txt', () => {
  test('allows everything and points to the sitemap at the public origin', async () => {
    const answer = await get('/robots.txt');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    expect(answer.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${SITE_URL}/sitemap.xml\n`);
  });
});

describe("the shell's files", () => {
  test('a hashed file is kept for a year, immutable, with its type and not to be sniffed', async () => {
    const name = hashedScript();
    const answer = await get(`/assets/${name}`, { 'accept-encoding': 'identity' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.rawPayload.equals(readFileSync(path.join(ASSETS, name)))).toBe(true);
  });

  test('a file without a hash in its name is revalidated', async () => {
    const answer = await get('/favicon.svg');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(answer.headers['cache-control']).toBe('no-cache');
  });

  test('the precompressed brotli copy is sent to a client that takes it, the file itself to one that refuses it', async () => {
    const name = hashedScript();
    const br = await get(`/assets/${name}`, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(readFileSync(path.join(ASSETS, name)))).toBe(
      true,
    );
    const refused = await get(`/assets/${name}`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.rawPayload.equals(readFileSync(path.join(ASSETS, name)))).toBe(true);
  });

  test('gzip;q=0 with a wildcard does not get gzip', async () => {
    const answer = await get(`/assets/${hashedScript()}`, { 'accept-encoding': 'gzip;q=0, *' });
    expect(answer.headers['content-encoding']).not.toBe('gzip');
  });

  test('a file answers If-None-Match with 304', async () => {
    const first = await get('/favicon.svg');
    const again = await get('/favicon.svg', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  test('a byte range of a file is a 206 with exactly those bytes', async () => {
    const file = readFileSync(path.join(SHELL_DIST, 'public', 'favicon.svg'));
    const answer = await get('/favicon.svg', { range: 'bytes=0-9', 'accept-encoding': 'identity' });
    expect(answer.statusCode).toBe(206);
    expect(answer.headers['content-range']).toBe(`bytes 0-9/${file.length}`);
    expect(answer.rawPayload.equals(file.subarray(0, 10))).toBe(true);
  });

  test('a missing file under /assets is the 404 page', async () => {
    const answer = await get('/assets/no-such-file.0123456789.js');
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  test("the page template, the shell's Node build and dotfiles are never served", async () => {
    for (const url of [
      '/index.html',
      '/index.html.br',
      '/index.html.gz',
      '/%69ndex.html',
      '/server/render.js',
      '/%73erver/render.js',
      '/server%2fchunks.json',
      '/../server/render.js',
      '/assets/%2e%2e/%2e%2e/server/render.js',
      '/.env',
      '/assets/.hidden',
    ]) {
      const answer = await get(url);
      expect([url, answer.statusCode]).toEqual([url, 404]);
      expect(answer.body).not.toContain('site-head');
    }
  });
});
