/**
 * The mail-service's settings, read from the environment and checked at start-up: a value that
 * does not parse stops the service with a message naming the variable and what it accepts. Every
 * time is bounded well within what Node's timers hold (2^31-1 ms; a longer one fires at once).
 * What only the machine can answer (MAILBOX_DIR can be made and written) is checked by
 * `prepareFolders` before the outbox opens.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { databaseUrlSetting } from '@site/postgres/setting';
import path from 'node:path';
import { z } from 'zod';
import addressparser from 'nodemailer/lib/addressparser';
import { RETENTION_DEFAULTS } from '@site/contracts/contact/retention';
import { trustProxySetting } from '@site/contracts/trust-proxy';
import { CONNECTION_LIMITS, type ConnectionLimits } from '@site/serving/connections';
import { LISTEN_HOST_FORMS, isListenHost } from '@site/serving/listen';
import { company } from '@site/ui/company';

/** The mail-service folder: the defaults for DATA_DIR and MAILBOX_DIR live inside it. */
export const SERVICE_DIR = path.resolve(__dirname, '..');

/** The largest request body accepted. A 5000-character message in a script of three UTF-8 bytes
 * per character, with a name and subject at their limits, is about 16,200 bytes of JSON. */
export const BODY_LIMIT_BYTES = 16 * 1024;

interface MailAddress {
  name: string;
  address: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Node's timers hold 2^31-1 ms (24.8 days); a longer one fires at once. */
const DAY_S = 86_400;
const DAY_MS = DAY_S * 1000;

const isEmail = (value: string) => z.email().safeParse(value).success;

/** The addresses of a list such as `Sales <sales@example.com>, ops@example.com`, or what is wrong. */
function parseAddresses(value: string): MailAddress[] | string {
  const parsed = addressparser(value, { flatten: true });
  if (parsed.length === 0) return 'expected an e-mail address such as "Name <name@example.com>"';
  const out: MailAddress[] = [];
  for (const entry of parsed) {
    if (!entry.address || !isEmail(entry.address)) {
      return `"${entry.address || entry.name}" is not a valid e-mail address`;
    }
    out.push({ name: entry.name, address: entry.address });
  }
  return out;
}

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.string().transform((value, ctx) => {
    const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a whole number from ${min} to ${max}, got "${value}"`,
      });
      return z.NEVER;
    }
    return n;
  });

/** One address or more, comma-separated, `Name <address>` allowed. */
const addressList = z.string().transform((value, ctx) => {
  const result = parseAddresses(value);
  if (typeof result === 'string') {
    ctx.addIssue({ code: 'custom', message: result });
    return z.NEVER;
  }
  return result;
});

/** Exactly one address, `Name <address>` allowed. */
const oneAddress = addressList.transform((list, ctx) => {
  const [only] = list;
  if (!only || list.length !== 1) {
    ctx.addIssue({ code: 'custom', message: 'expected exactly one address' });
    return z.NEVER;
  }
  return only;
});

const directory = z
  .string()
  .transform((value) => path.resolve(value))
  .refine((value) => value !== path.parse(value).root, { message: 'refusing the root folder' });

const listenHost = z.string().refine(isListenHost, {
  error: (issue) =>
    `"${String(issue.input)}" is not an address to listen on (${LISTEN_HOST_FORMS})`,
});

/**
 * A service URL setting (it may hold a password, so a problem is named without echoing it): one of
 * `protocols`, with a host name, and whatever else `check` asks of it.
 */
function serviceUrl(protocols: string[], expected: string, check?: (url: URL) => string | null) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const url = parseUrl(value);
      const problem = !url
        ? `is not a URL (expected ${expected})`
        : !protocols.includes(url.protocol)
          ? `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`
          : !url.hostname
            ? 'has no host name'
            : (check?.(url) ?? null);
      if (problem === null) return value;
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    });
}

const databaseUrl = databaseUrlSetting('the outbox and the rate limits are kept in PostgreSQL');

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Comma-separated http(s) origins, no paths; at least one. */
const origins = z.string().transform((value, ctx) => {
  const out: string[] = [];
  for (const raw of value.split(',').map((o) => o.trim())) {
    if (!raw) continue;
    const url = parseUrl(raw);
    const pathless =
      url && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
    if (!url || !pathless || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      ctx.addIssue({
        code: 'custom',
        message: `"${raw}" is not an origin such as https://www.example.com`,
      });
      return z.NEVER;
    }
    out.push(url.origin);
  }
  if (out.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'needs at least one origin' });
    return z.NEVER;
  }
  return out;
});

/**
 * Every setting of the mail-service: its variable, the form it takes with its bounds, its default,
 * and why. The service reads the parsed values as `config.<VARIABLE>` where it uses them: a list of
 * addresses is already the addresses, a folder already absolute. `.env.example` and
 * docs/configuration.md document each (env-example.test.ts keeps them true). A default is written
 * as the value the setting parses to, or with `prefault` as the text a variable would hold.
 */
const schema = z.object({
  // PORT is the site server's; 0 takes any free port.
  MAIL_SERVICE_PORT: int(0, 65535).default(3005),
  // Undefined: every interface.
  MAIL_SERVICE_HOST: listenHost.optional(),
  // The relay, with its credentials (never logged). Unset: messages are written as .eml files
  // into MAILBOX_DIR.
  SMTP_URL: serviceUrl(['smtp:', 'smtps:'], 'smtp://… or smtps://…'),
  // The company's address (shared/ui/src/company.ts), so a change there reaches the mailbox too.
  MAIL_TO: addressList.prefault(company.email),
  // An address of the company's own domain, named after the company; its domain is each
  // Message-ID's too.
  MAIL_FROM: oneAddress.prefault(
    `${company.name} website <website@${company.email.split('@')[1] ?? ''}>`,
  ),
  // The outbox, idempotency keys and rate-limit counters, shared by every instance. Required;
  // `npm start` passes its embedded PostgreSQL's. Holds credentials: never logged.
  DATABASE_URL: databaseUrl,
  // Where an earlier start kept its SQLite outbox (outbox.sqlite): moved into PostgreSQL on the
  // first start, then deleted. Nothing is written here.
  DATA_DIR: directory.default(path.join(SERVICE_DIR, '.data')),
  MAILBOX_DIR: directory.default(path.join(SERVICE_DIR, 'mailbox')),
  // Messages one client may send per window.
  RATE_LIMIT_MAX: int(1).default(5),
  // Seconds, at most a day: express-rate-limit resets its counts on a timer. The privacy notice
  // states the default (shared/contracts/src/contact/retention.ts).
  RATE_LIMIT_WINDOW: int(1, DAY_S).default(RETENTION_DEFAULTS.rateLimitWindowSeconds),
  // The proxies whose X-Forwarded-For is believed, in the site server's language.
  TRUST_PROXY: trustProxySetting.default(false),
  // Where the form is served from (CSRF and CORS); the first is the base of the digest's links.
  ALLOWED_ORIGINS: origins.prefault('http://localhost:3000'),
  // The wait before the next attempt is a timer: at most a day.
  RETRY_BASE_MS: int(1, DAY_MS).default(5000),
  RETRY_MAX_MS: int(1, DAY_MS).default(3_600_000),
  // Seconds a message is retried, from its acceptance or requeue, before it is kept as failed; at
  // most a year (compared with dates, never a timer). The privacy notice states the default.
  QUEUE_LIFETIME: int(1, 365 * DAY_S).default(RETENTION_DEFAULTS.queueLifetimeSeconds),
  // Connections to the relay, and so sends at once.
  SMTP_CONNECTIONS: int(1, 50).default(4),
  // Readiness turns red while an undelivered message has waited longer than this, in seconds.
  READY_MAX_QUEUE_AGE: int(1, 30 * DAY_S).default(900),
  // The privacy notice states these same figures (shared/contracts/src/contact/retention.ts).
  RETENTION_DAYS: int(1, 3650).default(RETENTION_DEFAULTS.retentionDays),
  SPAM_RETENTION_DAYS: int(1, 3650).default(RETENTION_DEFAULTS.spamRetentionDays),
  // Unset: no metrics endpoint. Set: GET /api/metrics with `Authorization: Bearer <token>`.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, { error: 'expected at least 16 printable characters, no spaces' })
    .optional(),
  // Signs the form tokens of the time trap and keys the erasure audit. Unset: a random secret
  // made once and kept in the database, so every instance shares it.
  FORM_TOKEN_SECRET: z
    .string()
    .regex(/^[\x21-\x7e]{32,}$/, {
      error:
        'expected at least 32 printable characters, no spaces (openssl rand -hex 32 makes one)',
    })
    .optional(),
  // A message sent sooner than this after its form was first used shows a weak spam signal; 0
  // turns the rule off.
  FORM_MIN_FILL_MS: int(0, 600_000).default(3000),
  // A message whose subject and text hold more links than this shows a weak spam signal.
  SPAM_MAX_LINKS: int(0, 1000).default(5),
  // How long a claimed message is this instance's without renewal.
  CLAIM_LEASE_MS: int(300, 600_000).default(10_000),
  // The site server reads it too: one level for the whole site.
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  // A timer: at most ten minutes, longer than any platform waits after SIGTERM.
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(7000),
  // How long a request may take to arrive, as the site server's (@site/serving's stated limits).
  HEADERS_TIMEOUT_MS: int(1000, 60_000).default(CONNECTION_LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: int(1000, 600_000).default(CONNECTION_LIMITS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: int(1000, 600_000).default(CONNECTION_LIMITS.keepAliveTimeoutMs),
});

/** A value no one can change: objects and arrays within it too. */
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

function freeze<T>(value: T): Frozen<T> {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) freeze(inner);
    Object.freeze(value);
  }
  return value as Frozen<T>;
}

/** The mail-service's settings, parsed and frozen, keyed by their variables. */
export type Config = Frozen<z.output<typeof schema>>;

/** Every variable the mail-service reads. */
export const MAIL_SETTING_NAMES = Object.keys(schema.shape) as (keyof typeof schema.shape)[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the settings from the environment. Empty values count as unset, so a blank line in an
 * .env file means "the default". Throws a ConfigError that names every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of MAIL_SETTING_NAMES) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const s = result.data;
  if (s.RETRY_MAX_MS < s.RETRY_BASE_MS) {
    throw new ConfigError([
      `RETRY_MAX_MS: must be at least RETRY_BASE_MS (${s.RETRY_BASE_MS}), got ${s.RETRY_MAX_MS}`,
    ]);
  }
  if (s.REQUEST_TIMEOUT_MS < s.HEADERS_TIMEOUT_MS) {
    throw new ConfigError([
      `REQUEST_TIMEOUT_MS: must be at least HEADERS_TIMEOUT_MS (${s.HEADERS_TIMEOUT_MS}), got ${s.REQUEST_TIMEOUT_MS}`,
    ]);
  }
  return freeze(s);
}

/**
 * The limits of the service's connections: how long a request may take to arrive, and no limit
 * per client address (the mail-service's clients are the site server and the balancer, whose own
 * limits count each visitor).
 */
export const connectionLimits = (
  config: Pick<Config, 'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'KEEP_ALIVE_TIMEOUT_MS'>,
): ConnectionLimits => ({
  headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
  requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
  maxPerClient: 0,
  maxConnections: CONNECTION_LIMITS.maxConnections,
});

/**
 * Makes the folder if it is missing (one level: its parent must exist, so a mistyped path is named
 * rather than made), and checks that this user may write in it. What is wrong, or undefined.
 * Never a recursive mkdir: Node's loops for good on a path under /proc.
 */
function folderProblem(dir: string): string | undefined {
  try {
    // Kept to its owner alone, as the mailbox courier keeps it (@site/serving's privateDir).
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `cannot create ${dir}: ${path.dirname(dir)} does not exist`;
    if (code !== 'EEXIST') return `cannot create ${dir} (${code ?? String(error)})`;
  }
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is a file, not a folder`;
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    return `${dir} is not writable by this user (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  return undefined;
}

/**
 * The folder the service writes, made and checked before anything opens it: MAILBOX_DIR for the
 * .eml files (without SMTP_URL). Throws a ConfigError naming it when it cannot be used.
 */
export function prepareFolders(config: Pick<Config, 'SMTP_URL' | 'MAILBOX_DIR'>): void {
  const mailbox = config.SMTP_URL ? undefined : folderProblem(config.MAILBOX_DIR);
  if (mailbox) throw new ConfigError([`MAILBOX_DIR: ${mailbox}`]);
}

/** The domain of MAIL_FROM, used to make each message's Message-ID. */
export const fromDomain = (config: Pick<Config, 'MAIL_FROM'>): string =>
  config.MAIL_FROM.address.slice(config.MAIL_FROM.address.lastIndexOf('@') + 1).toLowerCase();

/** Where the outbox is, safe to log: the database's host, port and name, never the credentials. */
export function describeStore(config: Pick<Config, 'DATABASE_URL'>): string {
  const url = new URL(config.DATABASE_URL);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/** Where delivery goes, safe to log: the SMTP host and port, never the credentials. */
export function describeTarget(config: Pick<Config, 'SMTP_URL' | 'MAILBOX_DIR'>): string {
  if (!config.SMTP_URL) return `mailbox folder ${config.MAILBOX_DIR}`;
  const url = new URL(config.SMTP_URL);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
}
