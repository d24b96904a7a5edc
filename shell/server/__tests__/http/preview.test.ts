/**
 * @jest-environment node
 */
import { PREVIEW_COOKIE, PreviewSigner, previewSecretOf } from '../../previews/preview';
import {
  DEPLOY_TOKEN,
  METRICS_TOKEN,
  SITE_URL,
  drawn,
  startFixture,
  type SiteFixture,
} from './site-fixture';

/**
 * A preview as the browser that opens its link sees it, and as everyone else does: the signed
 * link, its cookie, the previewed pages kept out of shared caches and search engines, and links
 * that are forged, altered or expired counting for nothing.
 */
let fixture: SiteFixture;
let link: string;
let token: string;
let page: string;

beforeAll(async () => {
  fixture = await startFixture();
  const published = fixture.version('other', '1.1.0');
  const answer = await fixture.deploy('PUT', '/remotes/other', {
    base: (await fixture.site.manifest()).version,
    entry: published.entry,
    version: '1.1.0',
    serverIntegrity: published.serverIntegrity,
    preview: true,
  });
  if (answer.status !== 200) throw new Error(`no preview: ${JSON.stringify(answer.body)}`);
  ({ url: link, page } = answer.body.preview as { url: string; page: string });
  token = new URL(link).pathname.slice('/_preview/'.length);
}, 180_000);

afterAll(() => fixture?.close());

const cookie = (value = token) => ({ cookie: `${PREVIEW_COOKIE}=${value}` });
const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers });

test('the deploy API signs a link on the site for the version, valid for a day, and nothing goes live', async () => {
  expect(link.startsWith(`${SITE_URL}/_preview/`)).toBe(true);
  const live = (await get('/remotes.json')).json<{
    remotes: { name: string; version: string }[];
  }>();
  expect(live.remotes.find((r) => r.name === 'other')?.version).toBe('1.0.0');
  expect((await get('/other/page')).body).toContain(drawn('other', '1.0.0', '/other/page'));
});

test('opening the link sets the preview cookie (HttpOnly, SameSite=Lax) and leads to the page it names', async () => {
  expect(page).toBe('/other/page');
  expect(new URL(link).search).toBe('?page=%2Fother%2Fpage');
  const answer = await get(link.slice(SITE_URL.length));
  expect(answer.statusCode).toBe(303);
  expect(answer.headers.location).toBe('/other/page');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-robots-tag']).toBe('noindex');
  const set = String(answer.headers['set-cookie']);
  expect(set.startsWith(`${PREVIEW_COOKIE}=${token};`)).toBe(true);
  expect(set).toMatch(/; HttpOnly/);
  expect(set).toMatch(/; SameSite=Lax/);
  expect(set).toMatch(/; Path=\//);
  expect(set).not.toMatch(/; Secure/);
  const expires = Date.parse(/Expires=([^;]+)/.exec(set)?.[1] ?? '');
  expect(expires - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
});

test('with the cookie: the previewed version, the bar saying so, private and not to be indexed', async () => {
  const answer = await get('/other/page', cookie());
  expect(answer.statusCode).toBe(200);
  expect(answer.body).toContain(drawn('other', '1.1.0', '/other/page'));
  expect(answer.body).toContain('<span>Preview: other 1.1.0</span>');
  expect(answer.body).toContain('href="/_preview/end"');
  expect(answer.headers['cache-control']).toBe('private, no-store');
  expect(answer.headers['x-robots-tag']).toBe('noindex');
});

test('without the cookie, the same page is the live one with no bar', async () => {
  const answer = await get('/other/page');
  expect(answer.body).toContain(drawn('other', '1.0.0', '/other/page'));
  expect(answer.body).not.toContain('site-preview-bar');
  expect(answer.headers['cache-control']).toBe('no-cache');
  expect(answer.headers['x-robots-tag']).toBeUndefined();
});

test("the shell's pages and the 404 page carry the bar too, kept out of shared caches", async () => {
  for (const [url, status] of [
    ['/about', 200],
    ['/no-such-page', 404],
  ] as const) {
    const answer = await get(url, cookie());
    expect([url, answer.statusCode]).toEqual([url, status]);
    expect(answer.body).toContain('id="site-preview-bar"');
    expect(answer.headers['cache-control']).toBe('private, no-store');
  }
});

test('/remotes.json with the cookie names the previewed version, privately', async () => {
  const answer = await get('/remotes.json', cookie());
  const manifest = answer.json<{ remotes: { name: string; version: string }[] }>();
  expect(manifest.remotes.find((r) => r.name === 'other')?.version).toBe('1.1.0');
  expect(answer.headers['cache-control']).toBe('private, no-store');
  expect(answer.headers['x-robots-tag']).toBe('noindex');
});

test('an altered token, in the link or in the cookie, counts for nothing', async () => {
  const [payload, mac] = token.split('.') as [string, string];
  const altered = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
  const opened = await get(`/_preview/${altered}`);
  expect(opened.statusCode).toBe(303);
  expect(opened.headers.location).toBe('/');
  expect(opened.headers['set-cookie']).toBeUndefined();
  const page = await get('/other/page', cookie(altered));
  expect(page.body).toContain(drawn('other', '1.0.0', '/other/page'));
  expect(page.body).not.toContain('site-preview-bar');
});

test('a token signed with the right secret that has expired counts for nothing', async () => {
  const live = await fixture.site.manifest();
  const other = live.manifest.remotes.find((r) => r.name === 'other')!;
  const yesterday = new PreviewSigner(
    previewSecretOf({ DEPLOY_TOKEN })!,
    () => Date.now() - 2 * 24 * 3600 * 1000,
  ).sign(
    {
      remote: 'other',
      version: '1.1.0',
      entry: other.entry.replace('1.0.0', '1.1.0'),
      serverIntegrity: '',
    },
    3600,
  );
  const opened = await get(`/_preview/${yesterday.token}`);
  expect(opened.headers.location).toBe('/');
  expect(opened.headers['set-cookie']).toBeUndefined();
  expect((await get('/other/page', cookie(yesterday.token))).body).not.toContain(
    'site-preview-bar',
  );
});

test('a token signed with another secret counts for nothing', async () => {
  const forged = new PreviewSigner('another secret').sign(
    {
      remote: 'other',
      version: '6.6.6',
      entry: `${fixture.origin}/other/1.1.0/remoteEntry.js`,
      serverIntegrity: '',
    },
    3600,
  );
  expect((await get(`/_preview/${forged.token}`)).headers.location).toBe('/');
  expect((await get('/about', cookie(forged.token))).body).not.toContain('site-preview-bar');
});

test('/_preview/end clears the cookie and leads home', async () => {
  const answer = await get('/_preview/end', cookie());
  expect(answer.statusCode).toBe(303);
  expect(answer.headers.location).toBe('/');
  const set = String(answer.headers['set-cookie']);
  expect(set.startsWith(`${PREVIEW_COOKIE}=;`)).toBe(true);
  expect(set).toMatch(/Max-Age=0/);
});

test('a previewed page is composed once for every browser previewing the same versions', async () => {
  const composed = async () => {
    const text = (
      await fixture.inject({
        url: '/_metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).body;
    return [...text.matchAll(/^site_page_composition_seconds_count\{[^}]*\} (\d+)$/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
  };
  const first = await get('/probe/second', cookie());
  expect(first.statusCode).toBe(200);
  const before = await composed();
  const answers = await Promise.all([1, 2, 3].map(() => get('/probe/second', cookie())));
  expect(answers.map((a) => [a.statusCode, a.headers.etag])).toEqual(
    answers.map(() => [200, first.headers.etag]),
  );
  expect(answers[0]!.body).toContain('Preview: other 1.1.0');
  expect(await composed()).toBe(before);
});
