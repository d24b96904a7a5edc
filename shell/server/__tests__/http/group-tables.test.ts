/**
 * @jest-environment node
 */
import { PATH_MAX } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';
import { SITE_TABLE, readGrants } from '../../deploy/table-rules';
import { parseSiteSettings } from '../../settings';
import { routeOf, startFixture, type GroupPages, type SiteFixture } from './site-fixture';

/**
 * A group's route table through the real deploy API, as a hostile or careless team writes it: its
 * prefixes and paths must be plain and the site table's grant, its entry must name the folder of
 * the version it publishes, and its size is bounded. Each refusal is a 422 naming the path or the
 * field and the rule, and leaves every page as it was; a table at every limit changes another
 * owner's page by a few kilobytes at most.
 */
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

/** Every page of the site but the deploying group's: the shell's, another group's, the 404. */
const OTHERS = ['/', '/about', '/services', '/contact', '/other/page', '/no-such-page'];

async function pages(): Promise<Record<string, { status: number; body: string }>> {
  const seen: Record<string, { status: number; body: string }> = {};
  for (const url of [...OTHERS, '/probe/hello']) {
    const answer = await fixture.inject(url);
    seen[url] = { status: answer.statusCode, body: answer.body };
  }
  return seen;
}

let versions = 0;
/** A new version of the probe group with these pages, and the body that deploys it. */
async function probeVersion(group: GroupPages) {
  const version = `5.0.${++versions}`;
  const published = fixture.group('probe', version, group);
  return {
    base: (await fixture.site.manifest()).version,
    entry: published.entry,
    version,
    serverIntegrity: published.serverIntegrity,
  };
}

/** Deploys `body` as probe's and expects a 422 that leaves every page byte for byte as it was. */
async function refused(body: Record<string, unknown>) {
  const before = await pages();
  const answer = await fixture.deploy('PUT', '/remotes/probe', body);
  expect(answer.status).toBe(422);
  expect(await pages()).toEqual(before);
  return { error: answer.body.error, message: String(answer.body.message) };
}

describe('a group’s prefixes and paths are plain and its own', () => {
  test.each([
    ['//evil.example', 'not_plain_path', 'it has an empty segment'],
    ['/\\evil.example', 'not_plain_path', 'it has a backslash'],
    ['/ASSETS', 'not_plain_path', 'a character other than lower-case letters'],
    ['/Services/Custom-Dev', 'not_plain_path', 'a character other than lower-case letters'],
    ['/services/custom%2Ddev', 'not_plain_path', 'it has percent-encoding'],
    ['/services/data-analytics/../custom-dev', 'not_plain_path', 'a "." or ".." segment'],
    ['/services/custom-dev;x', 'not_plain_path', 'it has a ";"'],
    ['/about-us', 'prefix_not_granted', 'not one the site table grants "probe" (/probe)'],
    ['/services/custom-dev', 'prefix_not_granted', 'not one the site table grants "probe"'],
  ])(
    'a prefix %s with a page at it: 422 %s naming it and the rule',
    async (prefix, error, rule) => {
      const body = await probeVersion({ prefix, paths: [prefix, `${prefix}/page`] });
      const answer = await refused(body);
      expect(answer.error).toBe(error);
      expect(answer.message).toContain(`the prefix ${JSON.stringify(prefix)}`);
      expect(answer.message).toContain(rule);
    },
  );

  test.each([
    ['/probe//evil.example', 'it has an empty segment'],
    ['/probe/./hello', 'a "." or ".." segment'],
    ['/probe/hello;x', 'it has a ";"'],
    ['/probe/h%65llo', 'it has percent-encoding'],
    [`/probe/${'a'.repeat(PATH_MAX)}`, `it has ${PATH_MAX + 7} characters`],
  ])('a path %s under its own prefix: 422 naming it and the rule', async (page, rule) => {
    const body = await probeVersion({ prefix: '/probe', paths: ['/probe/hello', page] });
    const answer = await refused(body);
    expect(answer.error).toBe('not_plain_path');
    expect(answer.message).toContain(`the path ${JSON.stringify(page).slice(0, 60)}`);
    expect(answer.message).toContain(rule);
    expect(answer.message).toContain('a plain path is "/" and segments of letters');
  });
});

test('by default, each group’s prefixes are those its row of the site table lists', async () => {
  const grants = await readGrants(SITE_TABLE);
  expect(Object.fromEntries(grants)).toEqual(
    Object.fromEntries(SITE_REMOTES.map((r) => [r.name, r.prefixes])),
  );
});

describe('the version is the folder', () => {
  const good: GroupPages = { prefix: '/probe', paths: ['/probe/hello'] };

  test('an entry in another version’s folder: 422 naming the folder', async () => {
    const body = await probeVersion(good);
    const answer = await refused({ ...body, version: '5.9.1' });
    expect(answer.error).toBe('not_version_folder');
    expect(answer.message).toContain(`its folder is "${body.version}"`);
    expect(answer.message).toContain('…/5.9.1/remoteEntry.js');
  });

  test.each([
    ['..', (v: string) => `/probe/5.0.0/../${v}/remoteEntry.js`],
    ['%2e%2e', (v: string) => `/probe/5.0.0/%2e%2e/${v}/remoteEntry.js`],
    ['.', (v: string) => `/probe/${v}/./remoteEntry.js`],
  ])('an entry through a %s segment: 422, as written', async (_segment, entryPath) => {
    const body = await probeVersion(good);
    const entry = `${fixture.origin}${entryPath(body.version)}`;
    const answer = await refused({ ...body, entry, version: '5.0.0' });
    expect(answer.error).toBe('not_version_folder');
    expect(answer.message).toContain(`the entry ${entry} must name the folder`);
  });
});

describe('a table’s size is bounded at deploy', () => {
  // The limits the fixture's site runs with: the settings' defaults.
  const defaults = parseSiteSettings({ DATABASE_URL: 'postgres://localhost/site' });
  const limits = {
    titleChars: defaults.ROUTE_TITLE_MAX_CHARS,
    navLabelChars: defaults.ROUTE_NAV_LABEL_MAX_CHARS,
    groupChars: defaults.ROUTE_GROUP_MAX_CHARS,
    routes: defaults.ROUTE_TABLE_MAX_ROUTES,
    tableBytes: defaults.ROUTE_TABLE_MAX_BYTES,
  };
  /** The probe group with its one page's field at `length` characters. */
  const withField = (field: string, length: number): GroupPages => ({
    prefix: '/probe',
    paths: ['/probe/hello'],
    route: (p) => ({ ...routeOf(p), [field]: 'x'.repeat(length) }),
  });

  test.each([
    ['navLabel', 300_000, limits.navLabelChars, 'ROUTE_NAV_LABEL_MAX_CHARS'],
    ['group', 100_000, limits.groupChars, 'ROUTE_GROUP_MAX_CHARS'],
    ['title', limits.titleChars + 1, limits.titleChars, 'ROUTE_TITLE_MAX_CHARS'],
  ])(
    'a %s of %i characters: 422 naming the field, its length and the limit',
    async (field, length, limit, setting) => {
      const answer = await refused(await probeVersion(withField(field, length)));
      expect(answer).toEqual({
        error: 'too_long',
        message: `routes[0].${field} (the page "/probe/hello") has ${length} characters, more than the limit of ${limit} (${setting}); nothing was changed`,
      });
    },
  );

  test('a description of 300,000 characters: 422 naming the field, its length and the limit a search result shows', async () => {
    const answer = await refused(await probeVersion(withField('description', 300_000)));
    expect(answer.message).toContain(
      'routes[0].description must be 50 to 160 characters (it has 300000)',
    );
  });

  test('more routes than the limit: 422 naming their number and the limit', async () => {
    const paths = Array.from({ length: limits.routes + 1 }, (_, i) => `/probe/page-${i}`);
    const answer = await refused(await probeVersion({ prefix: '/probe', paths }));
    expect(answer).toEqual({
      error: 'too_many_routes',
      message: `the route table has ${limits.routes + 1} routes, more than the limit of ${limits.routes} (ROUTE_TABLE_MAX_ROUTES); nothing was changed`,
    });
  });

  test('a table of more bytes than the limit: 422 naming the limit', async () => {
    const answer = await refused(
      await probeVersion({
        prefix: '/probe',
        paths: ['/probe/hello'],
        route: (p) => ({ ...routeOf(p), notes: ' '.repeat(limits.tableBytes) }),
      }),
    );
    expect(answer.error).toBe('table_too_large');
    expect(answer.message).toContain(
      `has more than ${limits.tableBytes} bytes, the limit (ROUTE_TABLE_MAX_BYTES)`,
    );
  });

  /**
   * The probe group with an overview and 30 pages: its words as a real team writes them (the
   * lengths of the longest in the site's own tables), or each field at its limit.
   */
  const sized = (atLimits: boolean): GroupPages => {
    const fill = (text: string, length: number) =>
      atLimits ? text + 'x'.repeat(length - text.length) : text;
    const pages = Array.from({ length: 30 }, (_, i) => `/probe/${i}-`);
    return {
      prefix: '/probe',
      paths: ['/probe', ...pages.map((p) => fill(`${p}software-development-page`, PATH_MAX))],
      route: (p) => ({
        path: p,
        title: fill(`Software development ${p.slice(7, 9)}`, limits.titleChars),
        description: fill(
          `Page ${p.slice(7, 9)}: custom software built around how your business works, from the first workshop to launch.`,
          160,
        ),
        group: fill('Probe Development', limits.groupChars),
        navLabel: fill(`Software development ${p.slice(7, 9)}`, limits.navLabelChars),
      }),
    };
  };

  test('a table past a limit changes nothing; one at every limit, another owner’s page by a few kilobytes at most', async () => {
    const real = await fixture.deploy('PUT', '/remotes/probe', await probeVersion(sized(false)));
    expect(real.status).toBe(200);
    const before = await pages();
    // The table, one label of 300,000 characters, is refused and changes nothing.
    const huge = sized(true);
    const over = await refused(
      await probeVersion({
        ...huge,
        route: (p) => ({
          ...huge.route!(p),
          ...(p === '/probe' ? { navLabel: 'x'.repeat(300_000) } : {}),
        }),
      }),
    );
    expect(over.message).toMatch(/^routes\[0\]\.navLabel .* has 300000 characters/);
    const answer = await fixture.deploy('PUT', '/remotes/probe', await probeVersion(huge));
    expect(answer.status).toBe(200);
    const after = await pages();
    const growth = OTHERS.map((url) => {
      expect([url, after[url]!.status]).toEqual([url, before[url]!.status]);
      return [
        url,
        Buffer.byteLength(after[url]!.body) - Buffer.byteLength(before[url]!.body),
      ] as const;
    });
    // Measured: 5.7 KB on /about, /contact and another group's page, 5.8 KB on /, 7.5 KB on /services.
    expect(growth.filter(([, bytes]) => bytes > GROWTH_BYTES)).toEqual([]);
  }, 60_000);
});

/**
 * How much a table at every limit may add to another owner's page, against the same pages with a
 * real team's words: every page names a prefix's overview and 10 leading pages, each some 0.5 KB
 * longer at the limits.
 */
const GROWTH_BYTES = 8 * 1024;
