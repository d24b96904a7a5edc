/**
 * @jest-environment node
 */
import { SITE_URL, canonicalOf, startFixture, type SiteFixture } from './site-fixture';

/**
 * Requests no browser sends: a path that does not decode, bytes no file name holds, paths and
 * headers far past any real one, garbage in every header the site reads. Each is answered with a
 * 4xx or the page it would otherwise get, never a 500, and the site keeps answering. (Targets the
 * URL parser rewrites before they reach a server in-process, such as `*` or an absolute form, are
 * sent over a socket by the browser suite's fuzz tests.)
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers });

afterEach(async () => {
  // Whatever the test sent, the site still answers the next visitor.
  expect((await get('/about')).statusCode).toBe(200);
});

describe('paths that do not decode', () => {
  test.each(['/%zz', '/about%', '/%E0%A4%A', '/%C0%AF', '/%ED%A0%80', '/assets/%FF.js'])(
    '%s is a 400 saying why, in plain text, not to be stored',
    async (url) => {
      const answer = await get(url);
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).toBe('The request target is not valid percent-encoding.\n');
    },
  );

  test('a query that does not decode is no concern of a page: it is answered', async () => {
    const answer = await get('/about?q=%zz&x=%E0%A4%A');
    expect(answer.statusCode).toBe(200);
    expect(canonicalOf(answer.body)).toBe(`${SITE_URL}/about`);
  });
});

describe('bytes no file name holds', () => {
  test.each([
    '/%00',
    '/favicon.svg%00',
    '/favicon.svg%00.png',
    '/assets%5C..%5Cserver%5Crender.js',
  ])('%s is the 404 page', async (url) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('sizes past any real request', () => {
  test('a path of 20,000 characters is the 404 page', async () => {
    const answer = await get(`/${'a'.repeat(20_000)}`);
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('a'.repeat(100));
  });

  test('a path of 20,000 characters under a group prefix, with a trailing slash, is the 404 page', async () => {
    const answer = await get(`/probe/${'x/'.repeat(10_000)}`);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers.location).toBeUndefined();
  });

  test('a cookie header of 60 KB, and a preview cookie of a thousand forged tokens, change nothing', async () => {
    const plain = await get('/about');
    const junk = await get('/about', { cookie: `a=${'b'.repeat(60_000)}` });
    const forged = await get('/about', {
      cookie: `site_preview=${Array.from({ length: 1000 }, (_, i) => `x${i}.y${i}`).join('~')}`,
    });
    for (const answer of [junk, forged]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(plain.body);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  test('a body of 2 MB posted to a page is refused with 405', async () => {
    const answer = await fixture.inject({
      method: 'POST',
      url: '/about',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(2 * 1024 * 1024, 1),
    });
    expect(answer.statusCode).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
  });
});

describe('headers the site reads', () => {
  test('a Host header of any kind never reaches the canonical link, the sitemap or robots.txt', async () => {
    for (const host of ['evil.example', 'evil.example:99999', '[', 'a b', '']) {
      const page = await get('/about', { host });
      expect([host, page.statusCode]).toEqual([host, 200]);
      expect(canonicalOf(page.body)).toBe(`${SITE_URL}/about`);
      const sitemap = await get('/sitemap.xml', { host });
      expect(sitemap.body).not.toContain('evil');
      expect((await get('/robots.txt', { host })).body).toContain(`${SITE_URL}/sitemap.xml`);
    }
  });

  test('X-Forwarded-Host and X-Forwarded-Proto from an untrusted client are not obeyed', async () => {
    const answer = await get('/about/', {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
    });
    expect(answer.statusCode).toBe(301);
    expect(answer.headers.location).toBe('/about');
  });

  test.each([
    ['accept-encoding', 'br;q=abc, gzip;q=-1, ,,;;, *;q=2'],
    ['if-none-match', 'W/, "", ,,,W/"'],
    ['if-modified-since', 'not a date'],
    ['cookie', '=; ;;; site_cohort=%zz; site_preview=%'],
    ['range', 'bytes=abc'],
    ['accept', '*/*;q=nonsense'],
  ])('a malformed %s is answered with the page', async (name, value) => {
    const answer = await get('/about', { [name]: value });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('<title>');
  });

  test('a range past the end of a file is a 416, not a 500', async () => {
    const answer = await get('/favicon.svg', {
      range: 'bytes=99999999-',
      'accept-encoding': 'identity',
    });
    expect(answer.statusCode).toBe(416);
  });
});

describe('methods', () => {
  test.each(['OPTIONS', 'TRACE'] as const)('%s anywhere is a 405 with Allow', async (method) => {
    for (const url of ['/', '/about', '/favicon.svg', '/no-such-page']) {
      const answer = await fixture.inject({ method, url });
      expect([method, url, answer.statusCode]).toEqual([method, url, 405]);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
  });
});

describe('other routes of the site', () => {
  test('a deploy API name that does not decode is a 400 with the deploy API refusal in JSON', async () => {
    const answer = await fixture.inject({
      method: 'PUT',
      url: '/_deploy/remotes/%zz',
      headers: { authorization: 'Bearer nobody', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.json()).toEqual({
      error: 'bad_target',
      message: 'The request target is not valid percent-encoding',
    });
  });

  test('an /api target that does not decode is refused before anything is forwarded', async () => {
    const answer = await get('/api/%zz');
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toBe('The request target is not valid percent-encoding.\n');
  });

  test('a preview link with a token of 10,000 characters leads home and sets nothing', async () => {
    const answer = await get(`/_preview/${'x'.repeat(10_000)}`);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });
});
