/**
 * @jest-environment node
 */
import path from 'node:path';
import { CONNECTION_LIMITS } from '@site/serving';
import {
  SettingsError,
  defaultRenderWorkers,
  connectionLimits,
  parseSiteSettings,
  type SiteConfig,
} from '../settings';

const root = path.join(__dirname, '..', '..', '..');

/** The one setting without a default, which `npm start` sets: the control plane's database. */
const database = { DATABASE_URL: 'postgres://site:password@localhost:5432/site' };
/** The settings of `env`, with the database set unless `env` sets it. */
const parse = (env: NodeJS.ProcessEnv) => parseSiteSettings({ ...database, ...env });

/** The problems a set of variables is refused with, one line per variable. */
function problems(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    parse(env);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('the site server settings', () => {
  test('without DATABASE_URL the server does not start, and says where one comes from', () => {
    let refused: readonly string[] = [];
    try {
      parseSiteSettings({});
    } catch (error) {
      if (error instanceof SettingsError) refused = error.problems;
    }
    expect(refused).toEqual([
      'DATABASE_URL: is not set: the live manifest, its history, the deploy tokens and the canary counts are kept in PostgreSQL (postgres://user:password@host:5432/database); npm start runs an embedded PostgreSQL and passes its URL',
    ]);
    expect(problems({ DATABASE_URL: 'mysql://site:secret@db/site' })[0]).not.toContain('secret');
  });

  test('with nothing set, every setting has its default', () => {
    // Each default is the value .env.example states (env-example.test.ts); a few read here.
    expect(parse({})).toMatchObject<Partial<SiteConfig>>({
      PORT: 3000,
      SITE_URL: 'http://localhost:3000',
      SHELL_DIST: path.join(root, 'shell', 'dist'),
      DEPLOY_DIR: path.join(root, 'deploy'),
      RENDER_WORKERS: defaultRenderWorkers(),
      DEPLOY_ALLOWED_ORIGINS: [],
      TRUST_PROXY: false,
    });
    expect(parse({}).DEPLOY_TOKEN).toBeUndefined();
    // Read where they are used, and never changed there.
    expect(Object.isFrozen(parse({}))).toBe(true);
    expect(Object.isFrozen(parse({}).DEPLOY_ALLOWED_ORIGINS)).toBe(true);
  });

  test('the connection limits the server applies are the settings over the stated ones', () => {
    expect(connectionLimits(parse({ MAX_CONNECTIONS_PER_CLIENT: '9' }))).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      maxPerClient: 9,
      maxConnections: CONNECTION_LIMITS.maxConnections,
    });
  });

  test("LOG_LEVEL is one of pino's levels, shared with the mail-service", () => {
    expect(parse({ LOG_LEVEL: 'warn' }).LOG_LEVEL).toBe('warn');
    expect(problems({ LOG_LEVEL: 'loud' })).toEqual([
      expect.stringMatching(
        /^LOG_LEVEL: .*expected one of fatal, error, warn, info, debug, trace, silent/,
      ),
    ]);
  });

  test('the route table limits are bounded, and each is read into its place', () => {
    expect(
      parse({
        ROUTE_TITLE_MAX_CHARS: '80',
        ROUTE_NAV_LABEL_MAX_CHARS: '40',
        ROUTE_GROUP_MAX_CHARS: '30',
        ROUTE_TABLE_MAX_ROUTES: '500',
        ROUTE_TABLE_MAX_BYTES: '262144',
      }),
    ).toMatchObject({
      ROUTE_TITLE_MAX_CHARS: 80,
      ROUTE_NAV_LABEL_MAX_CHARS: 40,
      ROUTE_GROUP_MAX_CHARS: 30,
      ROUTE_TABLE_MAX_ROUTES: 500,
      ROUTE_TABLE_MAX_BYTES: 262_144,
    });
    expect(
      problems({
        ROUTE_TITLE_MAX_CHARS: '300000',
        ROUTE_NAV_LABEL_MAX_CHARS: '0',
        ROUTE_GROUP_MAX_CHARS: 'sixty',
        ROUTE_TABLE_MAX_ROUTES: '1000000',
        ROUTE_TABLE_MAX_BYTES: '1024',
      }),
    ).toEqual([
      'ROUTE_TITLE_MAX_CHARS: "300000" is not a number of characters (20 to 1000)',
      'ROUTE_NAV_LABEL_MAX_CHARS: "0" is not a number of characters (10 to 200)',
      'ROUTE_GROUP_MAX_CHARS: "sixty" is not a number of characters (10 to 200)',
      'ROUTE_TABLE_MAX_ROUTES: "1000000" is not a number of routes (1 to 100000)',
      'ROUTE_TABLE_MAX_BYTES: "1024" is not a number of bytes (65536 to 20971520)',
    ]);
  });

  test('the last good pages stand in for a minute to 30 days, and are bounded in count and size', () => {
    expect(
      parse({
        LAST_GOOD_SECONDS: '3600',
        LAST_GOOD_PAGES: '200',
        LAST_GOOD_PAGE_BYTES: '65536',
      }),
    ).toMatchObject({
      LAST_GOOD_SECONDS: 3600,
      LAST_GOOD_PAGES: 200,
      LAST_GOOD_PAGE_BYTES: 65_536,
    });
    expect(
      problems({ LAST_GOOD_SECONDS: '10', LAST_GOOD_PAGES: '0', LAST_GOOD_PAGE_BYTES: '1e9' }),
    ).toEqual([
      expect.stringMatching(/^LAST_GOOD_SECONDS: /),
      expect.stringMatching(/^LAST_GOOD_PAGES: /),
      expect.stringMatching(/^LAST_GOOD_PAGE_BYTES: /),
    ]);
  });

  test('the connection limits are bounded: times within what a timer holds, the request after its headers', () => {
    expect(
      parse({
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '5000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        MAX_CONNECTIONS_PER_CLIENT: '1000',
      }),
    ).toMatchObject({
      HEADERS_TIMEOUT_MS: 2000,
      REQUEST_TIMEOUT_MS: 5000,
      KEEP_ALIVE_TIMEOUT_MS: 65_000,
      MAX_CONNECTIONS_PER_CLIENT: 1000,
    });
    expect(
      problems({
        HEADERS_TIMEOUT_MS: '999',
        REQUEST_TIMEOUT_MS: '3000000000',
        KEEP_ALIVE_TIMEOUT_MS: '99999999999',
        MAX_CONNECTIONS_PER_CLIENT: '0',
      }),
    ).toEqual([
      'HEADERS_TIMEOUT_MS: "999" is not a whole number of milliseconds (1000 to 60000)',
      'REQUEST_TIMEOUT_MS: "3000000000" is not a whole number of milliseconds (1000 to 600000)',
      'KEEP_ALIVE_TIMEOUT_MS: "99999999999" is not a whole number of milliseconds (1000 to 600000)',
      'MAX_CONNECTIONS_PER_CLIENT: "0" is not a number of connections (1 to 100000)',
    ]);
    expect(problems({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).toEqual([
      'REQUEST_TIMEOUT_MS: 10000 is shorter than HEADERS_TIMEOUT_MS (20000); the whole request includes its headers',
    ]);
  });

  test("a canary's judgment (rate, minimum views, window) and how often it is judged are checked", () => {
    expect(
      parse({
        CANARY_MAX_ERROR_RATE: '0.05',
        CANARY_MIN_VIEWS: '300',
        CANARY_WINDOW_SECONDS: '30',
        CANARY_JUDGE_SECONDS: '2',
      }),
    ).toMatchObject({
      CANARY_MAX_ERROR_RATE: 0.05,
      CANARY_MIN_VIEWS: 300,
      CANARY_WINDOW_SECONDS: 30,
      CANARY_JUDGE_SECONDS: 2,
    });
    expect(
      problems({
        CANARY_MAX_ERROR_RATE: '5%',
        CANARY_MIN_VIEWS: '0',
        CANARY_WINDOW_SECONDS: '5',
        CANARY_JUDGE_SECONDS: '120',
      }),
    ).toEqual([
      expect.stringContaining('CANARY_MAX_ERROR_RATE'),
      expect.stringContaining('CANARY_MIN_VIEWS'),
      expect.stringContaining('CANARY_WINDOW_SECONDS'),
      expect.stringContaining('CANARY_JUDGE_SECONDS'),
    ]);
    expect(problems({ CANARY_MAX_ERROR_RATE: '0' })).toEqual([
      expect.stringContaining('CANARY_MAX_ERROR_RATE'),
    ]);
  });

  test('CANARY_ERROR_THRESHOLD, a count no longer read, stops the start with what replaced it', () => {
    expect(problems({ CANARY_ERROR_THRESHOLD: '5' })).toEqual([
      expect.stringMatching(/^CANARY_ERROR_THRESHOLD: no longer read; .*CANARY_MAX_ERROR_RATE/),
    ]);
    expect(problems({ CANARY_ERROR_THRESHOLD: '5', PORT: 'x' })).toHaveLength(2);
    expect(parse({ CANARY_ERROR_THRESHOLD: '  ' }).CANARY_MIN_VIEWS).toBeGreaterThan(0);
  });

  test('METRICS_TOKEN turns the metrics on; a short one is refused without being echoed', () => {
    const token = 'metrics-token-0123456789';
    expect(parse({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(parse({}).METRICS_TOKEN).toBeUndefined();
    const refused = problems({ METRICS_TOKEN: 'short secret' });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^METRICS_TOKEN: expected at least 16 printable characters/);
    expect(refused[0]).not.toContain('short secret');
  });

  test('BEACON_RATE_LIMIT is a whole number of reports per minute', () => {
    expect(parse({ BEACON_RATE_LIMIT: '5' }).BEACON_RATE_LIMIT).toBe(5);
    for (const bad of ['0', '1.5', 'ten', '100001']) {
      expect(problems({ BEACON_RATE_LIMIT: bad })).toEqual([
        `BEACON_RATE_LIMIT: "${bad}" is not a number of reports per minute (1 to 100000)`,
      ]);
    }
  });

  test('empty and blank values count as unset; values are trimmed', () => {
    expect(parse({ PORT: '', RENDER_TIMEOUT_MS: '  ', DEPLOY_TOKEN: '' })).toEqual(parse({}));
    expect(parse({ PORT: ' 3456 ' }).PORT).toBe(3456);
  });

  test('RENDER_TIMEOUT_MS=3s is refused with what it accepts, not read as NaN', () => {
    expect(() => parse({ RENDER_TIMEOUT_MS: '3s' })).toThrow(
      'RENDER_TIMEOUT_MS: "3s" is not a whole number of milliseconds (100 to 60000)',
    );
    for (const bad of ['99', '60001', '2.5', '-1', '1e3', '0x10']) {
      expect(problems({ RENDER_TIMEOUT_MS: bad })).toEqual([
        `RENDER_TIMEOUT_MS: "${bad}" is not a whole number of milliseconds (100 to 60000)`,
      ]);
    }
    expect(parse({ RENDER_TIMEOUT_MS: '100' }).RENDER_TIMEOUT_MS).toBe(100);
    expect(parse({ RENDER_TIMEOUT_MS: '60000' }).RENDER_TIMEOUT_MS).toBe(60_000);
  });

  test('FETCH_TIMEOUT_MS is a whole number of milliseconds too', () => {
    expect(parse({ FETCH_TIMEOUT_MS: '800' }).FETCH_TIMEOUT_MS).toBe(800);
    expect(problems({ FETCH_TIMEOUT_MS: '2.5s' })).toEqual([
      'FETCH_TIMEOUT_MS: "2.5s" is not a whole number of milliseconds (100 to 60000)',
    ]);
  });

  test('every bad variable is named at once, in one error', () => {
    const error = (() => {
      try {
        parse({
          PORT: '70000',
          SITE_URL: 'www.example.com',
          RENDER_TIMEOUT_MS: '3s',
          RENDER_WORKERS: '0',
          DEPLOY_ALLOWED_ORIGINS: 'https://cdn.example.com/assets',
          TRUST_PROXY: 'true',
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SettingsError);
    const message = (error as SettingsError).message;
    for (const name of [
      'PORT',
      'SITE_URL',
      'RENDER_TIMEOUT_MS',
      'RENDER_WORKERS',
      'DEPLOY_ALLOWED_ORIGINS',
      'TRUST_PROXY',
    ]) {
      expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    }
    expect((error as SettingsError).problems).toHaveLength(6);
  });

  test('PORT is a port number; SITE_URL follows it unless set', () => {
    expect(parse({ PORT: '3456' })).toMatchObject({
      PORT: 3456,
      SITE_URL: 'http://localhost:3456',
    });
    for (const bad of ['0', '65536', 'http', '80.5']) {
      expect(problems({ PORT: bad })).toEqual([`PORT: "${bad}" is not a port number (1 to 65535)`]);
    }
  });

  test('SITE_URL is an absolute http(s) origin, given back without the trailing slash', () => {
    expect(parse({ SITE_URL: 'https://www.example.com/' }).SITE_URL).toBe(
      'https://www.example.com',
    );
    expect(parse({ SITE_URL: 'HTTPS://WWW.Example.COM:443' }).SITE_URL).toBe(
      'https://www.example.com',
    );
    expect(parse({ SITE_URL: 'http://localhost:8080' }).SITE_URL).toBe('http://localhost:8080');
    expect(problems({ SITE_URL: 'https://www.example.com/site' })).toEqual([
      'SITE_URL: "https://www.example.com/site" has a path (/site): expected an http(s) origin such as https://www.example.com',
    ]);
    expect(problems({ SITE_URL: 'www.example.com' })[0]).toMatch(/^SITE_URL: .*is not a URL/);
    expect(problems({ SITE_URL: 'ftp://www.example.com' })[0]).toMatch(/is not http or https/);
    expect(problems({ SITE_URL: 'https://www.example.com/?a=1' })[0]).toMatch(/query/);
  });

  test('HOST is an address or a host name; unset listens on every interface', () => {
    for (const host of ['127.0.0.1', '::', '::1', 'localhost', 'site.internal']) {
      expect(parse({ HOST: host }).HOST).toBe(host);
    }
    expect(problems({ HOST: 'local host' })).toEqual([
      'HOST: "local host" is not an address to listen on (an IP address such as 127.0.0.1 or ::, or a host name)',
    ]);
    // Digits and dots are an IPv4 address mistyped, not a name to look up.
    for (const typo of ['256.1.1.1', '127.0.0', '10.0.0.1.']) {
      expect(problems({ HOST: typo })[0]).toMatch(new RegExp(`^HOST: "${typo}" is not an address`));
    }
  });

  test('SHELL_DIST and DEPLOY_DIR are folders, relative ones taken from the working directory', () => {
    const s = parse({ SHELL_DIST: 'build/shell', DEPLOY_DIR: '/srv/site/deploy' });
    expect(s.SHELL_DIST).toBe(path.resolve('build/shell'));
    expect(s.DEPLOY_DIR).toBe('/srv/site/deploy');
  });

  test('MAIL_SERVICE_URL is an http(s) origin: a path would be ignored by the proxy, so it is refused', () => {
    expect(parse({ MAIL_SERVICE_URL: 'http://mail.internal:8025/' }).MAIL_SERVICE_URL).toBe(
      'http://mail.internal:8025',
    );
    expect(problems({ MAIL_SERVICE_URL: 'http://mail.internal/api' })).toEqual([
      'MAIL_SERVICE_URL: "http://mail.internal/api" has a path (/api): expected an http(s) origin such as http://127.0.0.1:3005',
    ]);
    expect(problems({ MAIL_SERVICE_URL: 'mail.internal:3005' })[0]).toMatch(/^MAIL_SERVICE_URL: /);
  });

  test('RENDER_WORKERS is 1 to 16; by default one fewer than the cores, at least 1, at most 4', () => {
    expect(parse({ RENDER_WORKERS: '16' }).RENDER_WORKERS).toBe(16);
    expect(problems({ RENDER_WORKERS: '17' })).toEqual([
      'RENDER_WORKERS: "17" is not a number of render processes (1 to 16)',
    ]);
    expect([1, 2, 3, 5, 64].map((cores) => defaultRenderWorkers(cores))).toEqual([1, 1, 2, 4, 4]);
  });

  test('DEPLOY_TOKEN turns the deploy API on; the allowed origins are read as origins, once each', () => {
    expect(
      parse({ DEPLOY_ALLOWED_ORIGINS: 'https://cdn.example.com' }).DEPLOY_TOKEN,
    ).toBeUndefined();
    const token = 'a-deploy-token-of-32-characters!';
    expect(
      parse({
        DEPLOY_TOKEN: token,
        DEPLOY_ALLOWED_ORIGINS:
          ' https://CDN.example.com/ ,http://localhost:3001,,https://cdn.example.com',
      }),
    ).toMatchObject({
      DEPLOY_TOKEN: token,
      DEPLOY_ALLOWED_ORIGINS: ['https://cdn.example.com', 'http://localhost:3001'],
      DEPLOY_CHECK_TIMEOUT_S: 120,
    });
  });

  test("DEPLOY_CHECK_TIMEOUT_S is how long one deploy's checks may take, 5 to 3600 s", () => {
    const token = 'a-deploy-token-of-32-characters!';
    expect(
      parse({ DEPLOY_TOKEN: token, DEPLOY_CHECK_TIMEOUT_S: '30' }).DEPLOY_CHECK_TIMEOUT_S,
    ).toBe(30);
    expect(problems({ DEPLOY_CHECK_TIMEOUT_S: '4' })).toEqual([
      'DEPLOY_CHECK_TIMEOUT_S: "4" is not a whole number of seconds (5 to 3600)',
    ]);
    expect(problems({ DEPLOY_CHECK_TIMEOUT_S: '3601' })).toHaveLength(1);
  });

  test('a DEPLOY_TOKEN shorter than 16 characters is refused without being shown', () => {
    const [problem] = problems({ DEPLOY_TOKEN: 'hunter2' });
    expect(problem).toBe(
      'DEPLOY_TOKEN: expected at least 16 printable characters without spaces (got 7 characters)',
    );
    expect(problems({ DEPLOY_TOKEN: 'sixteen chars ok' })[0]).not.toContain('sixteen');
  });

  test('DEPLOY_ALLOWED_ORIGINS names the entry with a path or a scheme other than http(s)', () => {
    expect(
      problems({ DEPLOY_ALLOWED_ORIGINS: 'https://cdn.example.com, https://cdn.example.com/data' }),
    ).toEqual([
      'DEPLOY_ALLOWED_ORIGINS: "https://cdn.example.com/data" has a path (/data): expected comma-separated http(s) origins such as https://cdn.example.com',
    ]);
    expect(problems({ DEPLOY_ALLOWED_ORIGINS: 'ftp://cdn.example.com' })).toEqual([
      'DEPLOY_ALLOWED_ORIGINS: "ftp://cdn.example.com" is not http or https (ftp): expected comma-separated http(s) origins such as https://cdn.example.com',
    ]);
  });

  test('TRUST_PROXY takes the mail-service forms: none, a hop count, names, addresses, ranges', () => {
    const accepted: [string, SiteConfig['TRUST_PROXY']][] = [
      ['false', false],
      ['none', false],
      ['0', 0],
      ['2', 2],
      ['loopback', ['loopback']],
      ['loopback, linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
      ['10.0.0.1', ['10.0.0.1']],
      ['10.0.0.0/8', ['10.0.0.0/8']],
      ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
      ['fd00::/8, 192.168.1.1', ['fd00::/8', '192.168.1.1']],
    ];
    for (const [value, expected] of accepted) {
      expect(parse({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
    }
    expect(problems({ TRUST_PROXY: 'true' })[0]).toMatch(
      /^TRUST_PROXY: true would believe X-Forwarded-For from anyone/,
    );
    for (const bad of ['proxy.internal', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/8', 'yes']) {
      expect(problems({ TRUST_PROXY: bad })[0]).toMatch(
        new RegExp(`^TRUST_PROXY: "${bad}" is not`),
      );
    }
  });

  test('the render processes: their limits bounded, their user a name', () => {
    expect(
      parse({
        GROUP_RENDER_WORKERS: '3',
        RENDER_MAX_PAGE_BYTES: '2000000',
        RENDER_MEMORY_MB: '512',
        GROUP_RENDER_MEMORY_MB: '2048',
        PREVIEW_RENDER_POOLS: '3',
        RENDER_USER: 'render',
      }),
    ).toMatchObject({
      GROUP_RENDER_WORKERS: 3,
      RENDER_MAX_PAGE_BYTES: 2_000_000,
      RENDER_MEMORY_MB: 512,
      GROUP_RENDER_MEMORY_MB: 2048,
      PREVIEW_RENDER_POOLS: 3,
      RENDER_USER: 'render',
    });
    for (const [name, value, says] of [
      ['RENDER_MAX_PAGE_BYTES', '1000', 'is not a number of bytes (65536 to 67108864)'],
      ['RENDER_MEMORY_MB', '64', 'is not a number of megabytes (96 to 8192)'],
      ['GROUP_RENDER_WORKERS', '0', 'is not a number of render processes (1 to 16)'],
      ['GROUP_RENDER_MEMORY_MB', '64', 'is not a number of megabytes (96 to 65536)'],
      ['PREVIEW_RENDER_POOLS', '0', 'is not a number of render pools (1 to 16)'],
      ['RENDER_USER', 'no body', 'is not a user name'],
    ] as const) {
      expect(() => parse({ [name]: value })).toThrow(`${name}: "${value}" ${says}`);
    }
    expect(() => parse({ RENDER_MEMORY_MB: '512', GROUP_RENDER_MEMORY_MB: '256' })).toThrow(
      'GROUP_RENDER_MEMORY_MB: 256 is less than RENDER_MEMORY_MB (512); a group needs room for one render process',
    );
  });

  test("the replica's name: unset by default, else a plain name for a header", () => {
    expect(parse({}).REPLICA_NAME).toBeUndefined();
    expect(parse({ REPLICA_NAME: 'site-1' }).REPLICA_NAME).toBe('site-1');
    for (const value of ['site 1', 'site\u00e9', 'x'.repeat(65)]) {
      expect(() => parse({ REPLICA_NAME: value })).toThrow(
        `REPLICA_NAME: "${value}" is not a replica name (1 to 64 letters, digits, ".", "-" or "_", such as site-1)`,
      );
    }
  });
});
