/**
 * @jest-environment node
 */
import { parse as parseCookie } from 'cookie';
import { COHORT_COOKIE } from '../../canary/judge';
import { VIEW_COOKIE } from '../../canary/view-tokens';
import { METRICS_TOKEN, drawn, startFixture, type SiteFixture } from './site-fixture';

/**
 * A canary as visitors and crawlers meet it: a signed cohort given once with the first page, the
 * canary seen below its share and the stable version above it, crawlers and files left alone, a
 * cookie the site did not sign replaced, and the canary promoted by a deploy or rolled back by the
 * site when the browsers of its own views report errors (reports without a view's token move
 * nothing). The test judges the canaries itself (`canaryJudge.tick()`), on 3 views at least.
 */
let fixture: SiteFixture;

const MIN_VIEWS = 3;
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** A cohort cookie as the site signs it: the cohort's number and a MAC of 12 bytes. */
const SIGNED_COHORT = /^\d{1,2}\.[\w-]{16}$/;

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
  fixture = await startFixture({
    // The test ticks the judge itself.
    settings: { CANARY_MIN_VIEWS: String(MIN_VIEWS) },
    hooks: { canaryIntervalMs: 3_600_000 },
  });
  await canary('1.1.0', 50);
}, 180_000);

afterAll(() => fixture?.close());

/** A browser loading a page into its tab (Fetch Metadata says so): the only kind of view. */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
const get = (url: string, headers: Record<string, string> = {}) =>
  fixture.inject({ method: 'GET', url, headers: { ...NAVIGATION, ...headers } });
const setCookies = (answer: { headers: Record<string, unknown> }): string[] =>
  ([] as string[]).concat((answer.headers['set-cookie'] as string | string[] | undefined) ?? []);
/** The cookies an answer sets, by name. */
const cookiesOf = (answer: { headers: Record<string, unknown> }): Record<string, string> =>
  Object.assign({}, ...setCookies(answer).map((line) => parseCookie(line.split(';')[0]!)));
const versionIn = (body: string) =>
  (JSON.parse(body) as { remotes: { name: string; version: string }[] }).remotes.find(
    (r) => r.name === 'other',
  )?.version;

/** A browser's visit: the signed cohort cookie its first page gave it, and its number. */
interface Visitor {
  cohort: number;
  headers: Record<string, string>;
}

/** A new visitor, placed by the site on its first page (the shell's, no group's view). */
async function firstVisit(): Promise<Visitor> {
  const answer = await get('/about', { 'user-agent': BROWSER });
  expect(answer.statusCode).toBe(200);
  const value = cookiesOf(answer)[COHORT_COOKIE] ?? '';
  expect(value).toMatch(SIGNED_COHORT);
  return {
    cohort: Number(value.split('.')[0]),
    headers: { 'user-agent': BROWSER, cookie: `${COHORT_COOKIE}=${value}` },
  };
}

/** New visitors until the site places one in a cohort that `fits`. */
async function visitorWhere(fits: (cohort: number) => boolean): Promise<Visitor> {
  for (let i = 0; i < 200; i++) {
    const visitor = await firstVisit();
    if (fits(visitor.cohort)) return visitor;
  }
  throw new Error('no first visit was placed in the cohort asked for');
}

const inCanary = () => visitorWhere((cohort) => cohort < 50);
const inStable = () => visitorWhere((cohort) => cohort >= 50);

/** A forged view token for `other` at `version`: the right shape, not the site's signature. */
const forgedToken = (version: string) =>
  `${Buffer.from(JSON.stringify(['other', version, 0, Date.now() + 600_000, 'forged'])).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`;

/** A browser's error report of `other` at `version`, with the cookies the browser sends to it. */
async function report(version: string, remoteAddress: string, cookie?: string) {
  const answer = await fixture.inject({
    method: 'POST',
    url: '/_beacon',
    remoteAddress,
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ kind: 'page-error', group: 'other', version }),
  });
  return answer.statusCode;
}

const canaryOf = async () => (await fixture.site.manifest()).canaries[0];

test('a new visitor is given a signed cohort with its first page: HttpOnly, SameSite=Lax, for a day', async () => {
  const answer = await get('/about', { 'user-agent': BROWSER });
  expect(answer.statusCode).toBe(200);
  expect(setCookies(answer)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^${COHORT_COOKIE}=\\d{1,2}\\.[\\w-]{16}; Max-Age=86400; Path=/; HttpOnly; SameSite=Lax$`,
      ),
    ),
  ]);
});

test("a group's page also gives its view token: sent only to /_beacon, HttpOnly, SameSite=Strict, for 30 minutes", async () => {
  const { headers } = await firstVisit();
  const answer = await get('/other/page', headers);
  expect(answer.statusCode).toBe(200);
  expect(setCookies(answer)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^${VIEW_COOKIE}=[\\w-]+\\.[\\w-]+; Max-Age=1800; Path=/_beacon; HttpOnly; SameSite=Strict$`,
      ),
    ),
  ]);
  // Each page its own token.
  const again = await get('/other/page', headers);
  expect(cookiesOf(again)[VIEW_COOKIE]).not.toBe(cookiesOf(answer)[VIEW_COOKIE]);
});

test('while a canary runs, pages and the manifest are private to the visitor and vary by cookie', async () => {
  const { headers } = await firstVisit();
  for (const url of ['/about', '/other/page', '/remotes.json']) {
    const answer = await get(url, headers);
    expect([url, answer.headers['cache-control']]).toEqual([url, 'private, no-cache']);
    expect(answer.headers.vary).toBe('Accept-Encoding, Cookie');
    // The visitor keeps its cohort: none is given again.
    expect(cookiesOf(answer)[COHORT_COOKIE]).toBeUndefined();
  }
});

test('a cohort below the share sees the canary, in its page and in the manifest it navigates with', async () => {
  const { headers } = await inCanary();
  expect((await get('/other/page', headers)).body).toContain(
    drawn('other', '1.1.0', '/other/page'),
  );
  const manifest = await get('/remotes.json', headers);
  expect(versionIn(manifest.body)).toBe('1.1.0');
  expect(manifest.body).not.toContain('"canaries"');
});

test('a cohort at or above the share sees the stable version', async () => {
  const { headers } = await inStable();
  expect((await get('/other/page', headers)).body).toContain(
    drawn('other', '1.0.0', '/other/page'),
  );
  expect(versionIn((await get('/remotes.json', headers)).body)).toBe('1.0.0');
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

test('a page a script fetches, a frame, a prefetch or a browser without Fetch Metadata asks for is no view: no token', async () => {
  const { headers } = await firstVisit();
  const asks: Record<string, string>[] = [
    { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-purpose': 'prefetch' },
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', purpose: 'prefetch' },
    { 'sec-fetch-mode': '', 'sec-fetch-dest': '' },
  ];
  for (const asked of asks) {
    const answer = await get('/other/page', { ...headers, ...asked });
    expect([asked, answer.statusCode, cookiesOf(answer)[VIEW_COOKIE]]).toEqual([
      asked,
      200,
      undefined,
    ]);
  }
});

describe('a cohort cookie the site did not sign is no cohort: a new one is given', () => {
  test.each(['0', '7', '49', 'abc', '100', '-1', '1.5', '', '0.AAAAAAAAAAAAAAAA'])(
    'written by hand: %p',
    async (value) => {
      const answer = await get('/about', {
        'user-agent': BROWSER,
        cookie: `${COHORT_COOKIE}=${value}`,
      });
      const given = cookiesOf(answer)[COHORT_COOKIE];
      expect(given).toMatch(SIGNED_COHORT);
      expect(given).not.toBe(value);
    },
  );

  test("another cohort's number put on a signed cookie", async () => {
    const { headers } = await visitorWhere((cohort) => cohort >= 10);
    const signed = parseCookie(headers.cookie!)[COHORT_COOKIE]!;
    const moved = `0${signed.slice(signed.indexOf('.'))}`;
    const answer = await get('/about', {
      'user-agent': BROWSER,
      cookie: `${COHORT_COOKIE}=${moved}`,
    });
    expect(cookiesOf(answer)[COHORT_COOKIE]).toMatch(SIGNED_COHORT);
    expect(cookiesOf(answer)[COHORT_COOKIE]).not.toBe(moved);
  });
});

test('a deploy of the canary version promotes it: everyone sees it, and no cohort is given any more', async () => {
  await canary('1.1.0', 0);
  const answer = await get('/other/page', { 'user-agent': BROWSER });
  expect(answer.body).toContain(drawn('other', '1.1.0', '/other/page'));
  expect(answer.headers['set-cookie']).toBeUndefined();
  expect(answer.headers['cache-control']).toBe('no-cache');
});

test("reports without a view's token move nothing; the errors of the canary's own views roll it back, with its figures", async () => {
  await canary('1.2.0', 50);
  const visitor = await inCanary();
  // The canary's visitor views its pages: each page gives the token of its view.
  const tokens: string[] = [];
  for (let i = 0; i < MIN_VIEWS; i++) {
    const page = await get('/other/page', visitor.headers);
    expect(page.body).toContain(drawn('other', '1.2.0', '/other/page'));
    tokens.push(cookiesOf(page)[VIEW_COOKIE]!);
  }

  // Reports that are not of a view the site served, each from its own address (under the
  // beacon's budget): none, a forged token, a forged one with a cohort written by hand.
  const refused = [
    undefined,
    `${VIEW_COOKIE}=${forgedToken('1.2.0')}`,
    `${COHORT_COOKIE}=0; ${VIEW_COOKIE}=${forgedToken('1.2.0')}`,
  ];
  for (let i = 0; i < 12; i++) {
    expect(await report('1.2.0', `198.51.100.${i + 1}`, refused[i % refused.length])).toBe(204);
  }
  expect(await fixture.site.app.canaryJudge.tick()).toBe(true);
  expect((await canaryOf())?.remote.version).toBe('1.2.0');
  const held = await fixture.deploy('GET', '/canaries');
  expect(
    (held.body.canaries as { decision: { outcome: string; reason: string } }[])[0]!.decision,
  ).toEqual({
    at: expect.any(String),
    outcome: 'inconclusive',
    reason: expect.stringMatching(new RegExp(`^canary 0 failed of ${MIN_VIEWS} views`)),
  });
  const metrics = await fixture.inject({
    url: '/_metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(metrics.body).toContain('site_beacons_refused_total{reason="no_token"} 12');

  // The browser of each view reports its error with the view's token, which counts once.
  for (const [i, token] of tokens.entries()) {
    const cookie = `${visitor.headers.cookie}; ${VIEW_COOKIE}=${token}`;
    expect(await report('1.2.0', `203.0.113.${i + 1}`, cookie)).toBe(204);
    expect(await report('1.2.0', `203.0.113.${i + 1}`, cookie)).toBe(204);
  }
  await fixture.site.app.canaryJudge.tick();
  expect(await canaryOf()).toBeUndefined();
  expect((await get('/other/page', visitor.headers)).body).toContain(
    drawn('other', '1.1.0', '/other/page'),
  );
  const history = (await fixture.deploy('GET', '/history?remote=other')).body.history as {
    by: string;
    action: string;
    reason: string;
  }[];
  expect(history.at(-1)).toMatchObject({ by: 'site', action: 'rollback' });
  expect(history.at(-1)!.reason).toMatch(
    new RegExp(
      `^automatic rollback: canary ${MIN_VIEWS} failed of ${MIN_VIEWS} views \\(100\\.00 %\\), stable 0 of \\d+`,
    ),
  );
  const after = await fixture.inject({
    url: '/_metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(after.body).toContain(`site_beacons_refused_total{reason="replayed"} ${MIN_VIEWS}`);
}, 60_000);

test("another group's code cannot spend a canary's signals: the pages it fetches are no views and its reports are refused", async () => {
  await canary('1.3.0', 50);
  const visitor = await inCanary();
  const fetched = { ...visitor.headers, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };
  // The visitor is on a page of probe: its document's token is probe's.
  const own = await get('/probe/hello', visitor.headers);
  const probeToken = cookiesOf(own)[VIEW_COOKIE];
  expect(probeToken).toBeDefined();
  // Probe's code fetches the canary's page again and again, and reports errors for it with what
  // the browser holds.
  for (let i = 0; i < MIN_VIEWS * 4; i++) {
    const page = await get('/other/page', fetched);
    expect(page.body).toContain(drawn('other', '1.3.0', '/other/page'));
    expect(cookiesOf(page)[VIEW_COOKIE]).toBeUndefined();
    const cookie = `${visitor.headers.cookie}; ${VIEW_COOKIE}=${probeToken}`;
    expect(await report('1.3.0', `192.0.2.${i + 1}`, cookie)).toBe(204);
  }
  await fixture.site.app.canaryJudge.tick();
  const running = await canaryOf();
  expect(running?.remote.version).toBe('1.3.0');
  const status = await fixture.deploy('GET', '/canaries');
  const [judged] = status.body.canaries as { canary: { views: number; failed: number } }[];
  expect(judged!.canary).toMatchObject({ views: 0, errors: 0 });
  const metrics = await fixture.inject({
    url: '/_metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(metrics.body).toContain(`site_beacons_refused_total{reason="mismatch"} ${MIN_VIEWS * 4}`);
}, 60_000);
