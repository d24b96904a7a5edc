/**
 * @jest-environment node
 */
import { company } from '@site/ui';
import { shellRoutes } from '../../../src/content/shell-routes';
import {
  SITE_URL,
  canonicalOf,
  descriptionOf,
  drawn,
  routeOf,
  startFixture,
  titleOf,
  type SiteFixture,
} from './site-fixture';

/** The site's pages as a client gets them: status, head and text, the 404 page, methods, redirects. */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers });

describe("the shell's pages", () => {
  test.each(Object.values(shellRoutes).filter((r) => r.path !== ''))(
    '$path answers 200 with its title, description and canonical link',
    async ({ path, title, description }) => {
      const answer = await get(path);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(titleOf(answer.body)).toBe(path === '/' ? title : `${title} | ${company.name}`);
      expect(descriptionOf(answer.body)).toBe(description);
      expect(canonicalOf(answer.body)).toBe(`${SITE_URL}${path}`);
      expect(answer.body).not.toContain('name="robots"');
    },
  );

  test('the home page carries the organisation as JSON-LD; a group page does not', async () => {
    const home = await get('/');
    expect(home.body).toContain('<script type="application/ld+json">');
    expect(home.body).toContain(`"name":"${company.name}"`);
    expect((await get('/probe/hello')).body).not.toContain('application/ld+json');
  });
});

describe("the groups' pages", () => {
  test.each(['/probe/hello', '/probe/second', '/other/page'])(
    '%s answers 200 with the text its group drew and the head of its route',
    async (path) => {
      const answer = await get(path);
      expect(answer.statusCode).toBe(200);
      const group = path.startsWith('/probe') ? 'probe' : 'other';
      expect(answer.body).toContain(drawn(group, '1.0.0', path));
      expect(titleOf(answer.body)).toBe(`${routeOf(path).title} | ${company.name}`);
      expect(descriptionOf(answer.body)).toBe(routeOf(path).description);
      expect(canonicalOf(answer.body)).toBe(`${SITE_URL}${path}`);
    },
  );

  test('the manifest the page was composed from is in the page, for the client to navigate with', async () => {
    const answer = await get('/probe/hello');
    const embedded =
      /<script type="application\/json" id="site-manifest">([\s\S]*?)<\/script>/.exec(
        answer.body,
      )?.[1];
    expect(embedded).toBeDefined();
    const remotes = (JSON.parse(embedded!) as { remotes: { name: string }[] }).remotes;
    expect(remotes.map((r) => r.name).sort()).toEqual(['other', 'probe']);
  });

  test('a page whose code throws is the notice: 503 with Retry-After, never a 500, the rest of its group up', async () => {
    const answer = await get('/probe/broken');
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('30');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toMatch(/temporarily unavailable/i);
    // The rest of the group stays up.
    expect((await get('/probe/hello')).statusCode).toBe(200);
  });
});

describe('unknown paths', () => {
  test.each(['/no-such-page', '/probe/no-such-page', '/other/page/deeper', '/probe', '/About'])(
    '%s answers 404 with the 404 page, marked not to be indexed and with no canonical link',
    async (path) => {
      const answer = await get(path);
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(titleOf(answer.body)).toBe(`${shellRoutes.notFound.title} | ${company.name}`);
      expect(answer.body).toContain('<meta name="robots" content="noindex" />');
      expect(canonicalOf(answer.body)).toBeUndefined();
    },
  );

  test('every unknown path gets the same 404 page, whatever it spells', async () => {
    const first = await get('/one-unknown-path');
    const second = await get('/another/unknown/path?with=query');
    expect(second.statusCode).toBe(404);
    expect(second.body).toBe(first.body);
    expect(first.body).not.toContain('one-unknown-path');
  });
});

describe('methods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH'] as const)(
    '%s on a page is 405 with Allow: GET, HEAD',
    async (method) => {
      const answer = await fixture.inject({ method, url: '/about', payload: '' });
      expect(answer.statusCode).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(answer.body).toBe('Only GET and HEAD are answered here.\n');
    },
  );

  test('POST to the sitemap, the manifest or a file is 405 as well', async () => {
    for (const url of ['/sitemap.xml', '/remotes.json', '/favicon.svg']) {
      const answer = await fixture.inject({ method: 'POST', url, payload: '' });
      expect([url, answer.statusCode]).toEqual([url, 405]);
    }
  });

  test('HEAD of a page has the headers of its GET and no body', async () => {
    const full = await get('/about', { 'accept-encoding': 'identity' });
    const head = await fixture.inject({
      method: 'HEAD',
      url: '/about',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(full.headers.etag);
    expect(head.headers['content-type']).toBe(full.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(full.body)));
  });

  test('HEAD of an unknown path is 404 with no body', async () => {
    const head = await fixture.inject({ method: 'HEAD', url: '/no-such-page' });
    expect(head.statusCode).toBe(404);
    expect(head.body).toBe('');
  });
});

describe('redirects', () => {
  test.each([
    ['/about/', '/about'],
    ['/about//', '/about'],
    ['/probe/hello/', '/probe/hello'],
    ['/about/?ref=news', '/about?ref=news'],
  ])('%s is a 301 to %s', async (from, to) => {
    const answer = await get(from);
    expect(answer.statusCode).toBe(301);
    expect(answer.headers.location).toBe(to);
  });

  test('a trailing slash on a path that is no page is the 404 page, not a redirect', async () => {
    const answer = await get('/no-such-page/');
    expect(answer.statusCode).toBe(404);
    expect(answer.headers.location).toBeUndefined();
  });

  test('no spelling of a path redirects off the site', async () => {
    for (const url of [
      '//evil.example/',
      '/.//evil.example/',
      '/%2e//evil.example/',
      '/\\evil.example/',
    ]) {
      const answer = await get(url);
      const location = answer.headers.location;
      if (location !== undefined) {
        expect([url, new URL(String(location), SITE_URL).origin]).toEqual([url, SITE_URL]);
      }
      expect([url, answer.statusCode < 500]).toEqual([url, true]);
    }
  });
});
