import path from 'node:path';
import { CONNECTION_LIMITS } from '@site/serving/connections';
import {
  ConfigError,
  SERVICE_DIR,
  connectionLimits,
  describeStore,
  describeTarget,
  loadConfig,
} from '../config';

/** The one setting without a default: every other one is tried beside it. */
const DATABASE_URL = 'postgres://mail:hunter2@db.internal:5432/site';
const load = (env: Record<string, string> = {}) => loadConfig({ DATABASE_URL, ...env });

const problems = (env: Record<string, string>, { withDatabase = true } = {}): string[] => {
  try {
    if (withDatabase) load(env);
    else loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  test('every setting but DATABASE_URL has a working default', () => {
    expect(load()).toEqual({
      MAIL_SERVICE_PORT: 3005,
      MAIL_SERVICE_HOST: undefined,
      SMTP_URL: undefined,
      MAIL_TO: [{ name: '', address: 'hello@highveld-digital.co.za' }],
      MAIL_FROM: { name: 'Highveld Digital website', address: 'website@highveld-digital.co.za' },
      DATABASE_URL,
      DATA_DIR: path.join(SERVICE_DIR, '.data'),
      MAILBOX_DIR: path.join(SERVICE_DIR, 'mailbox'),
      RATE_LIMIT_MAX: 5,
      RATE_LIMIT_WINDOW: 600,
      TRUST_PROXY: false,
      ALLOWED_ORIGINS: ['http://localhost:3000'],
      RETRY_BASE_MS: 5000,
      RETRY_MAX_MS: 3_600_000,
      QUEUE_LIFETIME: 5 * 86_400,
      SMTP_CONNECTIONS: 4,
      READY_MAX_QUEUE_AGE: 900,
      RETENTION_DAYS: 30,
      SPAM_RETENTION_DAYS: 7,
      METRICS_TOKEN: undefined,
      FORM_TOKEN_SECRET: undefined,
      FORM_MIN_FILL_MS: 3000,
      SPAM_MAX_LINKS: 5,
      CLAIM_LEASE_MS: 10_000,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 7000,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      KEEP_ALIVE_TIMEOUT_MS: 72_000,
    });
    expect(connectionLimits(load())).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      maxPerClient: 0,
      maxConnections: CONNECTION_LIMITS.maxConnections,
    });
  });

  test('the settings are read once and never change', () => {
    const c = load({ MAIL_TO: 'Sales <sales@example.com>, ops@example.com' });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.MAIL_TO)).toBe(true);
    expect(Object.isFrozen(c.MAIL_TO[0])).toBe(true);
    expect(Object.isFrozen(c.ALLOWED_ORIGINS)).toBe(true);
  });

  // Node's timers hold 2^31-1 ms: a longer wait fires at once, so a huge window was no limit.
  test.each([
    ['RATE_LIMIT_WINDOW', '99999999999', 'expected a whole number from 1 to 86400'],
    ['RATE_LIMIT_WINDOW', '86401', 'expected a whole number from 1 to 86400'],
    ['SHUTDOWN_TIMEOUT_MS', '3000000000', 'expected a whole number from 0 to 600000'],
    ['RETRY_BASE_MS', '86400001', 'expected a whole number from 1 to 86400000'],
    ['RETRY_MAX_MS', '2147483648', 'expected a whole number from 1 to 86400000'],
    ['QUEUE_LIFETIME', '31536001', 'expected a whole number from 1 to 31536000'],
    ['READY_MAX_QUEUE_AGE', '2592001', 'expected a whole number from 1 to 2592000'],
    ['HEADERS_TIMEOUT_MS', '999', 'expected a whole number from 1000 to 60000'],
    ['REQUEST_TIMEOUT_MS', '3000000000', 'expected a whole number from 1000 to 600000'],
    ['KEEP_ALIVE_TIMEOUT_MS', '600001', 'expected a whole number from 1000 to 600000'],
  ])('%s=%s, past its bound, is refused: %s', (name, value, message) => {
    expect(problems({ [name]: value })).toEqual([`${name}: ${message}, got "${value}"`]);
  });

  test('the request timeout covers its headers', () => {
    expect(problems({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).toEqual([
      'REQUEST_TIMEOUT_MS: must be at least HEADERS_TIMEOUT_MS (20000), got 10000',
    ]);
    expect(
      connectionLimits(load({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '5000' })),
    ).toMatchObject({ headersTimeoutMs: 2000, requestTimeoutMs: 5000 });
  });

  test('MAIL_SERVICE_HOST is an address or a host name', () => {
    expect(load({ MAIL_SERVICE_HOST: '127.0.0.1' }).MAIL_SERVICE_HOST).toBe('127.0.0.1');
    expect(load({ MAIL_SERVICE_HOST: 'mail.internal' }).MAIL_SERVICE_HOST).toBe('mail.internal');
    for (const bad of ['256.1.1.1', 'mail host']) {
      expect(problems({ MAIL_SERVICE_HOST: bad })).toEqual([
        `MAIL_SERVICE_HOST: "${bad}" is not an address to listen on (an IP address such as 127.0.0.1 or ::, or a host name)`,
      ]);
    }
  });

  test('PORT is the site’s, not ours; empty values mean the default', () => {
    expect(load({ PORT: '8080', MAIL_SERVICE_PORT: '' }).MAIL_SERVICE_PORT).toBe(3005);
  });

  test('values are parsed: lists, proxies, relative folders', () => {
    const c = load({
      MAIL_SERVICE_PORT: '4000',
      ALLOWED_ORIGINS: 'https://www.example.com, http://localhost:3000/',
      MAIL_TO: 'Sales <sales@example.com>, ops@example.com',
      TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.168.0.0/255.255.0.0, fd00::/8',
      DATA_DIR: 'var/outbox',
      SMTP_URL: 'smtps://user:secret@smtp.example.com:465',
    });
    expect(c.MAIL_SERVICE_PORT).toBe(4000);
    expect(c.ALLOWED_ORIGINS).toEqual(['https://www.example.com', 'http://localhost:3000']);
    expect(c.MAIL_TO).toEqual([
      { name: 'Sales', address: 'sales@example.com' },
      { name: '', address: 'ops@example.com' },
    ]);
    expect(c.TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.0.0/255.255.0.0',
      'fd00::/8',
    ]);
    expect(c.DATA_DIR).toBe(path.resolve('var/outbox'));
    expect(describeTarget(c)).toBe('smtps://smtp.example.com:465');
    expect(load({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
  });

  test.each([
    ['MAIL_SERVICE_PORT', '70000'],
    ['MAIL_SERVICE_PORT', '3005abc'],
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_WINDOW', '-5'],
    ['RETRY_BASE_MS', '1.5'],
    ['QUEUE_LIFETIME', 'many'],
    ['TRUST_PROXY', 'true'],
    ['METRICS_TOKEN', 'short'],
    ['MAIL_TO', 'not-an-address'],
    ['MAIL_FROM', 'a@example.com, b@example.com'],
    ['SMTP_URL', 'http://smtp.example.com'],
    ['SMTP_URL', 'smtp://'],
    ['TRUST_PROXY', 'my-proxy'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['ALLOWED_ORIGINS', 'https://www.example.com/contact'],
    ['ALLOWED_ORIGINS', '*'],
    ['LOG_LEVEL', 'loud'],
    ['SHUTDOWN_TIMEOUT_MS', 'soon'],
    ['FORM_TOKEN_SECRET', 'too-short-for-a-secret'],
    ['FORM_TOKEN_SECRET', 'a secret with spaces in it, long enough'],
    ['FORM_MIN_FILL_MS', '2.5'],
    ['FORM_MIN_FILL_MS', '3600000'],
    ['SPAM_MAX_LINKS', '-1'],
  ])('%s=%s is refused with a message that names it', (name, value) => {
    const p = problems({ [name]: value });
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(new RegExp(`^${name}: `));
  });

  test('a bad SMTP_URL is reported with what is wrong, without echoing its password', () => {
    for (const [bad, reason] of [
      ['smtp//user:hunter2@smtp.example.com', 'is not a URL (expected smtp://… or smtps://…)'],
      ['http://user:hunter2@smtp.example.com', 'must start with smtp:// or smtps://'],
      ['smtp:user:hunter2@smtp.example.com', 'has no host name'],
    ] as const) {
      expect(problems({ SMTP_URL: bad })).toEqual([`SMTP_URL: ${reason}`]);
    }
    expect(load({ SMTP_URL: 'smtps://u:p@smtp.example.com:465' }).SMTP_URL).toBe(
      'smtps://u:p@smtp.example.com:465',
    );
  });

  test('DATABASE_URL is required, and the message says where npm start gets one', () => {
    for (const env of [{}, { DATABASE_URL: '' }, { DATABASE_URL: '   ' }] as Record<
      string,
      string
    >[]) {
      expect(problems(env, { withDatabase: false })).toEqual([
        expect.stringMatching(
          /^DATABASE_URL: is not set: .*PostgreSQL.*npm start runs an embedded PostgreSQL and passes its URL$/,
        ),
      ]);
    }
  });

  test('DATABASE_URL: a postgres:// URL naming a database, refused otherwise without echoing its password', () => {
    expect(load().DATABASE_URL).toBe(DATABASE_URL);
    expect(describeStore(load())).toBe('PostgreSQL db.internal:5432/site');
    for (const [bad, reason] of [
      ['mysql://mail:hunter2@db.internal/site', 'must start with postgres:// or postgresql://'],
      ['postgres://mail:hunter2@db.internal', 'names no database (postgres://host/database)'],
      [
        'postgres//mail:hunter2@db.internal/site',
        'is not a URL (expected postgres://user:password@host:5432/database)',
      ],
    ] as const) {
      expect(problems({ DATABASE_URL: bad })).toEqual([`DATABASE_URL: ${reason}`]);
    }
  });

  test('RETRY_MAX_MS below RETRY_BASE_MS is refused', () => {
    expect(problems({ RETRY_BASE_MS: '1000', RETRY_MAX_MS: '10' })[0]).toMatch(/^RETRY_MAX_MS: /);
  });

  test('several bad settings are all reported at once', () => {
    const p = problems({ RATE_LIMIT_MAX: 'x', LOG_LEVEL: 'y' });
    expect(p.map((x) => x.split(':')[0]).sort()).toEqual(['LOG_LEVEL', 'RATE_LIMIT_MAX']);
  });
});
