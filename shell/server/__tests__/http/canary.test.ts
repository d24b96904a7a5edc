/**
 * @jest-environment node
 */
import { COHORT_COOKIE } from '../../canary';
import { drawn, startFixture, type SiteFixture } from './site-fixture';

/**
 * A canary as visitors and crawlers meet it: a cohort given once with the first page, the canary
 * seen below its share and the stable version above it, crawlers and files left alone, and the
 * canary promoted by a deploy or rolled back by the site when browsers report its errors.
 */
let fixture: SiteFixture;

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

async function canary(version: string, percent: number) {
  const published = fixture.version('other', version);
  const answer = await fixture.deploy('PUT', '/remotes/other', {
    base: (await fixture.site.manifest()).version,
    entry: published.entry,
    version,
    serverIntegrity: published.serverIntegrity,
    ...(percent ? { canary: percent } : {}),
  });
  if (answer.status !== 200) throw new Error(`refused: ${JSON.stringify(answer.body)}`);
}

beforeAll(async () => {
  fixture = await startFixture();
  await canary('1.1.0', 50);
}, 180_000);

afterAll(() => fixture?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers });
const inCohort = (cohort: number | string) => ({
  'user-agent': BROWSER,
  cookie: `${COHORT_COOKIE}=${cohort}`,
});
const versionIn = (body: string) =>
  (JSON.parse(body) as { remotes: { name: string; version: string }[] }).remotes.find(
    (r) => r.name === 'other',
  )?.version;

test('a new visitor is given a cohort with its first page: HttpOnly, SameSite=Lax, for a day', async () => {
  const answer = await get('/about', { 'user-agent': BROWSER });
  expect(answer.statusCode).toBe(200);
  const set = String(answer.headers['set-cookie']);
  expect(set).toMatch(
    new RegExp(`^${COHORT_COOKIE}=\\d{1,2}; Max-Age=86400; Path=/; HttpOnly; SameSite=Lax$`),
  );
});

test('while a canary runs, pages and the manifest are private to the visitor and vary by cookie', async () => {
  for (const url of ['/about', '/other/page', '/remotes.json']) {
    const answer = await get(url, inCohort(7));
    expect([url, answer.headers['cache-control']]).toEqual([url, 'private, no-cache']);
    expect(answer.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(answer.headers['set-cookie']).toBeUndefined();
  }
});

test('a cohort below the share sees the canary, in its page and in the manifest it navigates with', async () => {
  const page = await get('/other/page', inCohort(0));
  expect(page.body).toContain(drawn('other', '1.1.0', '/other/page'));
  const manifest = await get('/remotes.json', inCohort(49));
  expect(versionIn(manifest.body)).toBe('1.1.0');
  expect(manifest.body).not.toContain('"canaries"');
});

test('a cohort at or above the share sees the stable version', async () => {
  expect((await get('/other/page', inCohort(50))).body).toContain(
    drawn('other', '1.0.0', '/other/page'),
  );
  expect(versionIn((await get('/remotes.json', inCohort(99))).body)).toBe('1.0.0');
});

test('a crawler, or a client with no user agent, is given no cohort and sees the stable version', async () => {
  for (const headers of [{ 'user-agent': GOOGLEBOT }, {}] as Record<string, string>[]) {
    const page = await get('/other/page', headers);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.body).toContain(drawn('other', '1.0.0', '/other/page'));
    expect(versionIn((await get('/remotes.json', headers)).body)).toBe('1.0.0');
  }
});

test('files are the same for every cohort: no cohort is given and they stay publicly cached', async () => {
  const answer = await get('/favicon.svg', { 'user-agent': BROWSER });
  expect(answer.headers['set-cookie']).toBeUndefined();
  expect(answer.headers['cache-control']).toBe('no-cache');
  expect(answer.headers.vary).toBe('Accept-Encoding');
});

test.each(['abc', '100', '-1', '1.5', ''])(
  'a cohort cookie of %p is no cohort: a new one is given',
  async (value) => {
    const answer = await get('/about', inCohort(value));
    expect(String(answer.headers['set-cookie'])).toMatch(new RegExp(`^${COHORT_COOKIE}=\\d{1,2};`));
  },
);

test('a deploy of the canary version promotes it: everyone sees it, and no cohort is given any more', async () => {
  await canary('1.1.0', 0);
  const answer = await get('/other/page', { 'user-agent': BROWSER });
  expect(answer.body).toContain(drawn('other', '1.1.0', '/other/page'));
  expect(answer.headers['set-cookie']).toBeUndefined();
  expect(answer.headers['cache-control']).toBe('no-cache');
});

test("browsers' error reports past the threshold roll the canary back by themselves", async () => {
  await canary('1.2.0', 50);
  expect((await get('/other/page', inCohort(0))).body).toContain(
    drawn('other', '1.2.0', '/other/page'),
  );
  // Five reports (the default threshold), each from its own address, under the beacon's budget.
  for (let i = 0; i < 5; i++) {
    const answer = await fixture.inject({
      method: 'POST',
      url: '/_beacon',
      remoteAddress: `198.51.100.${i + 1}`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ kind: 'page-error', group: 'other', version: '1.2.0' }),
    });
    expect(answer.statusCode).toBe(204);
  }
  // The site checks its canaries every second.
  const deadline = Date.now() + 15_000;
  while ((await fixture.site.manifest()).canaries.length > 0) {
    if (Date.now() > deadline) throw new Error('the canary was not rolled back');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect((await get('/other/page', inCohort(0))).body).toContain(
    drawn('other', '1.1.0', '/other/page'),
  );
  const history = JSON.stringify((await fixture.deploy('GET', '/history?remote=other')).body);
  expect(history).toMatch(/automatic rollback: \d+ errors in 60 s/);
}, 30_000);
