import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { databaseUrlProblem } from '@site/postgres';
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

export interface MailAddress {
  name: string;
  address: string;
}

export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string | undefined;
  /** Unset: messages are written as .eml files into `mailboxDir`. Holds credentials: never log. */
  smtpUrl: string | undefined;
  mailTo: MailAddress[];
  mailFrom: MailAddress;
  /** Set: the outbox and the rate-limit counters live in this PostgreSQL, shared by every
   * instance; unset: the SQLite outbox in `dataDir`. Holds credentials: never log. */
  databaseUrl: string | undefined;
  dataDir: string;
  mailboxDir: string;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  trustProxy: TrustProxy;
  allowedOrigins: string[];
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a message is retried, from its acceptance or requeue, before it is kept as failed. */
  queueLifetimeSeconds: number;
  smtpConnections: number;
  /** Readiness turns red while an undelivered message is older than this. */
  readyMaxQueueAgeSeconds: number;
  retentionDays: number;
  spamRetentionDays: number;
  /** Unset: no metrics endpoint. Set: GET /api/metrics with `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Signs the form tokens of the time trap and keys the erasure audit. Unset: a random secret
   * made once and kept in the outbox's store, so instances sharing a database share it. */
  formTokenSecret: string | undefined;
  /** A message sent sooner than this after its form was first used is spam; 0 turns the rule off. */
  formMinFillMs: number;
  /** A message whose text holds more links than this is spam. */
  spamMaxLinks: number;
  /** With DATABASE_URL: how long a claimed message is this instance's without renewal. */
  claimLeaseMs: number;
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
  /**
   * How long a request may take to arrive. No limit per client address: the mail-service's
   * clients are the site server and the balancer, whose own limits count each visitor.
   */
  connections: ConnectionLimits;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULTS = {
  MAIL_SERVICE_PORT: '3005',
  MAIL_TO: company.email,
  // The sender is an address of the company's own domain, named after the company, so a rename in
  // shared/ui/src/company.ts reaches the mailbox too.
  MAIL_FROM: `${company.name} website <website@${company.email.split('@')[1] ?? ''}>`,
  DATA_DIR: path.join(SERVICE_DIR, '.data'),
  MAILBOX_DIR: path.join(SERVICE_DIR, 'mailbox'),
  RATE_LIMIT_MAX: '5',
  RATE_LIMIT_WINDOW: String(RETENTION_DEFAULTS.rateLimitWindowSeconds),
  TRUST_PROXY: 'false',
  ALLOWED_ORIGINS: 'http://localhost:3000',
  RETRY_BASE_MS: '5000',
  RETRY_MAX_MS: '3600000',
  QUEUE_LIFETIME: String(RETENTION_DEFAULTS.queueLifetimeSeconds),
  SMTP_CONNECTIONS: '4',
  READY_MAX_QUEUE_AGE: '900',
  // The privacy notice states these same figures (shared/contracts/src/contact/retention.ts).
  RETENTION_DAYS: String(RETENTION_DEFAULTS.retentionDays),
  SPAM_RETENTION_DAYS: String(RETENTION_DEFAULTS.spamRetentionDays),
  FORM_MIN_FILL_MS: '3000',
  SPAM_MAX_LINKS: '5',
  CLAIM_LEASE_MS: '10000',
  LOG_LEVEL: 'info',
  SHUTDOWN_TIMEOUT_MS: '7000',
  HEADERS_TIMEOUT_MS: String(CONNECTION_LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: String(CONNECTION_LIMITS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: String(CONNECTION_LIMITS.keepAliveTimeoutMs),
} as const;

/** Node's timers hold 2^31-1 ms (24.8 days); a longer one fires at once. */
const DAY_S = 86_400;
const DAY_MS = DAY_S * 1000;

const isEmail = (value: string) => z.email().safeParse(value).success;

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

const addresses = (single: boolean) =>
  z.string().transform((value, ctx) => {
    const result = parseAddresses(value);
    if (typeof result === 'string') {
      ctx.addIssue({ code: 'custom', message: result });
      return z.NEVER;
    }
    if (single && result.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'expected exactly one address' });
      return z.NEVER;
    }
    return result;
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

const smtpUrl = serviceUrl(['smtp:', 'smtps:'], 'smtp://… or smtps://…');

const databaseUrl = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const problem = value === undefined ? undefined : databaseUrlProblem(value);
    if (!problem) return value;
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

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

const envSchema = z.object({
  MAIL_SERVICE_PORT: int(0, 65535).default(Number(DEFAULTS.MAIL_SERVICE_PORT)),
  MAIL_SERVICE_HOST: listenHost.optional(),
  SMTP_URL: smtpUrl,
  MAIL_TO: addresses(false).default(() => parseAddresses(DEFAULTS.MAIL_TO) as MailAddress[]),
  MAIL_FROM: addresses(true).default(() => parseAddresses(DEFAULTS.MAIL_FROM) as MailAddress[]),
  DATABASE_URL: databaseUrl,
  DATA_DIR: directory.default(DEFAULTS.DATA_DIR),
  MAILBOX_DIR: directory.default(DEFAULTS.MAILBOX_DIR),
  RATE_LIMIT_MAX: int(1).default(Number(DEFAULTS.RATE_LIMIT_MAX)),
  // Seconds, at most a day: express-rate-limit resets its counts on a timer.
  RATE_LIMIT_WINDOW: int(1, DAY_S).default(Number(DEFAULTS.RATE_LIMIT_WINDOW)),
  TRUST_PROXY: trustProxySetting.default(false),
  ALLOWED_ORIGINS: origins.default([DEFAULTS.ALLOWED_ORIGINS]),
  // The wait before the next attempt is a timer: at most a day.
  RETRY_BASE_MS: int(1, DAY_MS).default(Number(DEFAULTS.RETRY_BASE_MS)),
  RETRY_MAX_MS: int(1, DAY_MS).default(Number(DEFAULTS.RETRY_MAX_MS)),
  // Seconds, at most a year (compared with dates, never a timer).
  QUEUE_LIFETIME: int(1, 365 * DAY_S).default(Number(DEFAULTS.QUEUE_LIFETIME)),
  SMTP_CONNECTIONS: int(1, 50).default(Number(DEFAULTS.SMTP_CONNECTIONS)),
  READY_MAX_QUEUE_AGE: int(1, 30 * DAY_S).default(Number(DEFAULTS.READY_MAX_QUEUE_AGE)),
  RETENTION_DAYS: int(1, 3650).default(Number(DEFAULTS.RETENTION_DAYS)),
  SPAM_RETENTION_DAYS: int(1, 3650).default(Number(DEFAULTS.SPAM_RETENTION_DAYS)),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, { error: 'expected at least 16 printable characters, no spaces' })
    .optional(),
  FORM_TOKEN_SECRET: z
    .string()
    .regex(/^[\x21-\x7e]{32,}$/, {
      error:
        'expected at least 32 printable characters, no spaces (openssl rand -hex 32 makes one)',
    })
    .optional(),
  FORM_MIN_FILL_MS: int(0, 600_000).default(Number(DEFAULTS.FORM_MIN_FILL_MS)),
  SPAM_MAX_LINKS: int(0, 1000).default(Number(DEFAULTS.SPAM_MAX_LINKS)),
  CLAIM_LEASE_MS: int(300, 600_000).default(Number(DEFAULTS.CLAIM_LEASE_MS)),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` })
    .default(DEFAULTS.LOG_LEVEL),
  // A timer: at most ten minutes, longer than any platform waits after SIGTERM.
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(Number(DEFAULTS.SHUTDOWN_TIMEOUT_MS)),
  HEADERS_TIMEOUT_MS: int(1000, 60_000).default(Number(DEFAULTS.HEADERS_TIMEOUT_MS)),
  REQUEST_TIMEOUT_MS: int(1000, 600_000).default(Number(DEFAULTS.REQUEST_TIMEOUT_MS)),
  KEEP_ALIVE_TIMEOUT_MS: int(1000, 600_000).default(Number(DEFAULTS.KEEP_ALIVE_TIMEOUT_MS)),
});

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
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const result = envSchema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const e = result.data;
  if (e.RETRY_MAX_MS < e.RETRY_BASE_MS) {
    throw new ConfigError([
      `RETRY_MAX_MS: must be at least RETRY_BASE_MS (${e.RETRY_BASE_MS}), got ${e.RETRY_MAX_MS}`,
    ]);
  }
  if (e.REQUEST_TIMEOUT_MS < e.HEADERS_TIMEOUT_MS) {
    throw new ConfigError([
      `REQUEST_TIMEOUT_MS: must be at least HEADERS_TIMEOUT_MS (${e.HEADERS_TIMEOUT_MS}), got ${e.REQUEST_TIMEOUT_MS}`,
    ]);
  }
  const [mailFrom] = e.MAIL_FROM;
  if (!mailFrom) throw new ConfigError(['MAIL_FROM: expected exactly one address']);
  return {
    port: e.MAIL_SERVICE_PORT,
    host: e.MAIL_SERVICE_HOST,
    smtpUrl: e.SMTP_URL,
    mailTo: e.MAIL_TO,
    mailFrom,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    mailboxDir: e.MAILBOX_DIR,
    rateLimitMax: e.RATE_LIMIT_MAX,
    rateLimitWindowSeconds: e.RATE_LIMIT_WINDOW,
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS,
    retryBaseMs: e.RETRY_BASE_MS,
    retryMaxMs: e.RETRY_MAX_MS,
    queueLifetimeSeconds: e.QUEUE_LIFETIME,
    smtpConnections: e.SMTP_CONNECTIONS,
    readyMaxQueueAgeSeconds: e.READY_MAX_QUEUE_AGE,
    retentionDays: e.RETENTION_DAYS,
    spamRetentionDays: e.SPAM_RETENTION_DAYS,
    metricsToken: e.METRICS_TOKEN,
    formTokenSecret: e.FORM_TOKEN_SECRET,
    formMinFillMs: e.FORM_MIN_FILL_MS,
    spamMaxLinks: e.SPAM_MAX_LINKS,
    claimLeaseMs: e.CLAIM_LEASE_MS,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    connections: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxPerClient: 0,
      maxConnections: CONNECTION_LIMITS.maxConnections,
    },
  };
}

/**
 * Makes the folder if it is missing (one level: its parent must exist, so a mistyped path is named
 * rather than made), and checks that this user may write in it. What is wrong, or undefined.
 * Never a recursive mkdir: Node's loops for good on a path under /proc.
 */
function folderProblem(dir: string): string | undefined {
  try {
    // Kept to its owner alone, as the outbox and the mailbox keep theirs (@site/serving's privateDir).
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
 * The folders the service writes, made and checked before anything opens them: DATA_DIR for the
 * SQLite outbox (without DATABASE_URL), MAILBOX_DIR for the .eml files (without SMTP_URL). Throws a
 * ConfigError naming each one that cannot be used.
 */
export function prepareFolders(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'smtpUrl' | 'mailboxDir'>,
): void {
  const problems: string[] = [];
  const data = config.databaseUrl ? undefined : folderProblem(config.dataDir);
  if (data) problems.push(`DATA_DIR: ${data}`);
  const mailbox = config.smtpUrl ? undefined : folderProblem(config.mailboxDir);
  if (mailbox) problems.push(`MAILBOX_DIR: ${mailbox}`);
  if (problems.length) throw new ConfigError(problems);
}

/** The domain of MAIL_FROM, used to make each message's Message-ID. */
export const fromDomain = (config: Pick<Config, 'mailFrom'>): string =>
  config.mailFrom.address.slice(config.mailFrom.address.lastIndexOf('@') + 1).toLowerCase();

/** Where the outbox is, safe to log: the database's host, port and name, never the credentials. */
export function describeStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `SQLite in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/** Where delivery goes, safe to log: the SMTP host and port, never the credentials. */
export function describeTarget(config: Pick<Config, 'smtpUrl' | 'mailboxDir'>): string {
  if (!config.smtpUrl) return `mailbox folder ${config.mailboxDir}`;
  const url = new URL(config.smtpUrl);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
}
