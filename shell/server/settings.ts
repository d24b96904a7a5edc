/**
 * The site server's settings, read from the environment and checked at start-up: a value that does
 * not parse stops the server with a message naming the variable and what it accepts, instead of
 * becoming `NaN` or an empty origin deep inside the server. Every time is bounded well within what
 * Node's timers hold (2^31-1 ms; a longer one fires at once). What only the machine can answer (the
 * folders exist, the host name resolves) is checked by `checkSiteMachine` (config/machine-checks.ts)
 * before anything starts.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SHELL_PORT } from '@site/contracts/site';
import { trustProxySetting, type TrustProxy } from '@site/contracts/trust-proxy';
import { CONNECTION_LIMITS, type ConnectionLimits } from '@site/serving';
import { DEFAULT_BEACON_RATE_LIMIT } from './canary/beacon';
import { CANARY_DEFAULTS } from './canary/judge';
import type { LastGoodSettings } from './pages/last-good';
import type { Judgment } from '@site/contracts/canary-judgment';
import type { RouteTableLimits } from './deploy/table-rules';
import { DEFAULTS } from './site';
import {
  databaseUrl,
  deployToken,
  folder,
  host,
  origin,
  originList,
  wholeNumber,
} from './config/setting-forms';

const ROOT = path.join(__dirname, '..', '..');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface SiteSettings {
  port: number;
  /** Undefined: every interface. */
  host: string | undefined;
  /** The public origin, without a trailing slash. */
  siteUrl: string;
  shellDist: string;
  deployDir: string;
  /** The mail-service's origin, where `/api/*` is forwarded. */
  mailServiceUrl: string;
  renderTimeoutMs: number;
  fetchTimeoutMs: number;
  renderWorkers: number;
  /** Render processes at most per group version. */
  groupRenderWorkers: number;
  /**
   * The largest page a group's render may give, the memory one render process may hold, the memory
   * all of one group's processes may hold, and the pools a group keeps for versions not live.
   */
  render: { maxPageBytes: number; memoryMb: number; groupMemoryMb: number; previewPools: number };
  /** The user the render processes run as, where the site server runs as root. */
  renderUser: string;
  /**
   * Undefined without DEPLOY_TOKEN: the deploy API is off. `previewSecret` signs preview links;
   * undefined: one derived from the token.
   */
  deploy:
    | {
        token: string;
        allowedOrigins: string[];
        previewSecret?: string | undefined;
        checkTimeoutMs: number;
      }
    | undefined;
  trustProxy: TrustProxy;
  /** How large a group's route table, and what every page shows of it, may be at deploy. */
  routeLimits: RouteTableLimits;
  /** Undefined without DATABASE_URL: the live manifest and its history are files in deployDir. */
  databaseUrl?: string | undefined;
  /** Undefined without METRICS_TOKEN: `GET /_metrics` is off. */
  metricsToken?: string | undefined;
  /** Reports `POST /_beacon` takes from one client address per minute. */
  beaconRateLimit: number;
  /** How canaries are judged unless their deploy says otherwise, and how often. */
  canary: Judgment & { intervalMs: number };
  /** How long a request may take to arrive, and the connections one client address may hold. */
  connections: ConnectionLimits;
  /** Undefined without REPLICA_NAME: answers do not say which replica gave them. */
  replicaName?: string | undefined;
  /** The least level logged (a request's line is info; files and probes debug). */
  logLevel: (typeof LOG_LEVELS)[number];
  /** How long, how many and how large the last good group pages that stand in for a failed render. */
  lastGood: LastGoodSettings;
}

export class SettingsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** Render processes: one fewer than the cores, so the server's own process keeps one, at least 1, at most 4. */
export const defaultRenderWorkers = (cores = availableParallelism()): number =>
  Math.max(1, Math.min(4, cores - 1));

const schema = z.object({
  PORT: wholeNumber('a port number', 1, 65535).default(SHELL_PORT),
  HOST: host.optional(),
  SITE_URL: origin('https://www.example.com').optional(),
  SHELL_DIST: folder.default(path.join(ROOT, 'shell', 'dist')),
  DEPLOY_DIR: folder.default(path.join(ROOT, 'deploy')),
  // The proxy keeps each request's own path (/api/…): a path here would be silently ignored.
  MAIL_SERVICE_URL: origin('http://127.0.0.1:3005').default('http://127.0.0.1:3005'),
  RENDER_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 100, 60_000).default(
    DEFAULTS.renderTimeoutMs,
  ),
  FETCH_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 100, 60_000).default(
    DEFAULTS.fetchTimeoutMs,
  ),
  RENDER_WORKERS: wholeNumber('a number of render processes', 1, 16).default(() =>
    defaultRenderWorkers(),
  ),
  GROUP_RENDER_WORKERS: wholeNumber('a number of render processes', 1, 16).default(
    DEFAULTS.groupRenderWorkers,
  ),
  // A page's markup is some 50 KB; 64 KB to 64 MB.
  RENDER_MAX_PAGE_BYTES: wholeNumber('a number of bytes', 65_536, 67_108_864).default(
    DEFAULTS.maxPageBytes,
  ),
  // Below 96 MB a render process cannot hold React and the shell's build.
  RENDER_MEMORY_MB: wholeNumber('a number of megabytes', 96, 8192).default(DEFAULTS.renderMemoryMb),
  // All of one group's render processes, every version of it together; at least RENDER_MEMORY_MB.
  GROUP_RENDER_MEMORY_MB: wholeNumber('a number of megabytes', 96, 65_536).default(
    DEFAULTS.groupRenderMemoryMb,
  ),
  PREVIEW_RENDER_POOLS: wholeNumber('a number of render pools', 1, 16).default(
    DEFAULTS.previewRenderPools,
  ),
  RENDER_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/i, {
      error: (issue) => `"${String(issue.input)}" is not a user name (such as nobody)`,
    })
    .default(DEFAULTS.renderUser),
  DEPLOY_TOKEN: deployToken.optional(),
  DEPLOY_ALLOWED_ORIGINS: originList.default([]),
  // Signs preview links; every replica needs the same one (default: derived from DEPLOY_TOKEN).
  PREVIEW_SECRET: deployToken.optional(),
  // Long enough for a large group's every page rendered on a busy machine; no team waits on it.
  DEPLOY_CHECK_TIMEOUT_S: wholeNumber('a whole number of seconds', 5, 3600).default(
    DEFAULTS.deployCheckTimeoutMs / 1000,
  ),
  // What a deploy may ask of every page (deploy/table-rules.ts): each limit is four times the
  // largest a real table has or more, and together they keep another owner's page within a few KB.
  ROUTE_TITLE_MAX_CHARS: wholeNumber('a number of characters', 20, 1000).default(
    DEFAULTS.routeLimits.titleChars,
  ),
  ROUTE_NAV_LABEL_MAX_CHARS: wholeNumber('a number of characters', 10, 200).default(
    DEFAULTS.routeLimits.navLabelChars,
  ),
  ROUTE_GROUP_MAX_CHARS: wholeNumber('a number of characters', 10, 200).default(
    DEFAULTS.routeLimits.groupChars,
  ),
  ROUTE_TABLE_MAX_ROUTES: wholeNumber('a number of routes', 1, 100_000).default(
    DEFAULTS.routeLimits.routes,
  ),
  // Fetched into the site server's memory for each deploy: 64 KB to the 20 MB of any remote file.
  ROUTE_TABLE_MAX_BYTES: wholeNumber('a number of bytes', 65_536, 20_971_520).default(
    DEFAULTS.routeLimits.tableBytes,
  ),
  TRUST_PROXY: trustProxySetting.default(false),
  DATABASE_URL: databaseUrl.optional(),
  // The same rule as the deploy token's (and the mail-service's METRICS_TOKEN).
  METRICS_TOKEN: deployToken.optional(),
  BEACON_RATE_LIMIT: wholeNumber('a number of reports per minute', 1, 100_000).default(
    DEFAULT_BEACON_RATE_LIMIT,
  ),
  CANARY_MAX_ERROR_RATE: z
    .string()
    .trim()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, {
      error: (issue) => `"${String(issue.input)}" is not a share from 0 to 1 (such as 0.02)`,
    })
    .transform(Number)
    .refine((n) => n > 0, { error: 'a share above 0 (such as 0.02)' })
    .default(CANARY_DEFAULTS.maxErrorRate),
  CANARY_MIN_VIEWS: wholeNumber('a number of views', 1, 1_000_000).default(
    CANARY_DEFAULTS.minViews,
  ),
  CANARY_WINDOW_SECONDS: wholeNumber('a whole number of seconds', 10, 3600).default(
    CANARY_DEFAULTS.windowSeconds,
  ),
  CANARY_JUDGE_SECONDS: wholeNumber('a whole number of seconds', 1, 60).default(
    DEFAULTS.canaryIntervalMs / 1000,
  ),
  HEADERS_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 1000, 60_000).default(
    CONNECTION_LIMITS.headersTimeoutMs,
  ),
  REQUEST_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 1000, 600_000).default(
    CONNECTION_LIMITS.requestTimeoutMs,
  ),
  KEEP_ALIVE_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 1000, 600_000).default(
    CONNECTION_LIMITS.keepAliveTimeoutMs,
  ),
  MAX_CONNECTIONS_PER_CLIENT: wholeNumber('a number of connections', 1, 100_000).default(
    CONNECTION_LIMITS.maxPerClient,
  ),
  // A group page whose render fails stands in from its last good composition this long: a day
  // by default (an outage outlasts a restart), a minute to 30 days.
  LAST_GOOD_SECONDS: wholeNumber('a whole number of seconds', 60, 2_592_000).default(
    DEFAULTS.lastGood.maxAgeMs / 1000,
  ),
  LAST_GOOD_PAGES: wholeNumber('a number of pages', 1, 1_000_000).default(
    DEFAULTS.lastGood.maxPages,
  ),
  // 1 KB to 64 MB; a group page's markup is some 50 KB.
  LAST_GOOD_PAGE_BYTES: wholeNumber('a number of bytes', 1024, 67_108_864).default(
    DEFAULTS.lastGood.maxPageBytes,
  ),
  // The mail-service reads it too: one level for the whole site.
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  // Sent in a response header: letters, digits, dots, dashes and underscores only.
  REPLICA_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, {
      error: (issue) =>
        `"${String(issue.input)}" is not a replica name (1 to 64 letters, digits, ".", "-" or "_", such as site-1)`,
    })
    .optional(),
});

/** Variables the site server once read, and what replaced each. */
const RETIRED_SETTINGS: Record<string, string> = {
  CANARY_ERROR_THRESHOLD:
    'a canary is judged by its rate of failed views against the stable version: set CANARY_MAX_ERROR_RATE (such as 0.02) and CANARY_MIN_VIEWS instead, and remove it',
};

/** Every variable the site server reads. */
export const SITE_SETTING_NAMES = Object.keys(schema.shape) as (keyof typeof schema.shape)[];

/**
 * The site server's settings from `env`. Values are trimmed, and an empty one counts as unset, so
 * a blank line in an .env file means "the default". Throws a SettingsError naming every bad
 * variable and what it accepts.
 */
export function parseSiteSettings(env: NodeJS.ProcessEnv): SiteSettings {
  const input: Record<string, string> = {};
  for (const name of SITE_SETTING_NAMES) {
    const value = env[name]?.trim();
    if (value) input[name] = value;
  }
  const result = schema.safeParse(input);
  // Settings this server once read and reads no more: set, they would silently change nothing.
  const retired = Object.entries(RETIRED_SETTINGS)
    .filter(([name]) => env[name]?.trim())
    .map(([name, instead]) => `${name}: no longer read; ${instead}`);
  if (!result.success || retired.length) {
    throw new SettingsError([
      ...(result.success
        ? []
        : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
      ...retired,
    ]);
  }
  const s = result.data;
  if (s.GROUP_RENDER_MEMORY_MB < s.RENDER_MEMORY_MB) {
    throw new SettingsError([
      `GROUP_RENDER_MEMORY_MB: ${s.GROUP_RENDER_MEMORY_MB} is less than RENDER_MEMORY_MB (${s.RENDER_MEMORY_MB}); a group needs room for one render process`,
    ]);
  }
  if (s.REQUEST_TIMEOUT_MS < s.HEADERS_TIMEOUT_MS) {
    throw new SettingsError([
      `REQUEST_TIMEOUT_MS: ${s.REQUEST_TIMEOUT_MS} is shorter than HEADERS_TIMEOUT_MS (${s.HEADERS_TIMEOUT_MS}); the whole request includes its headers`,
    ]);
  }
  return {
    port: s.PORT,
    host: s.HOST,
    siteUrl: s.SITE_URL ?? `http://localhost:${s.PORT}`,
    shellDist: s.SHELL_DIST,
    deployDir: s.DEPLOY_DIR,
    mailServiceUrl: s.MAIL_SERVICE_URL,
    renderTimeoutMs: s.RENDER_TIMEOUT_MS,
    fetchTimeoutMs: s.FETCH_TIMEOUT_MS,
    renderWorkers: s.RENDER_WORKERS,
    groupRenderWorkers: s.GROUP_RENDER_WORKERS,
    render: {
      maxPageBytes: s.RENDER_MAX_PAGE_BYTES,
      memoryMb: s.RENDER_MEMORY_MB,
      groupMemoryMb: s.GROUP_RENDER_MEMORY_MB,
      previewPools: s.PREVIEW_RENDER_POOLS,
    },
    renderUser: s.RENDER_USER,
    deploy:
      s.DEPLOY_TOKEN === undefined
        ? undefined
        : {
            token: s.DEPLOY_TOKEN,
            allowedOrigins: s.DEPLOY_ALLOWED_ORIGINS,
            ...(s.PREVIEW_SECRET ? { previewSecret: s.PREVIEW_SECRET } : {}),
            checkTimeoutMs: s.DEPLOY_CHECK_TIMEOUT_S * 1000,
          },
    routeLimits: {
      titleChars: s.ROUTE_TITLE_MAX_CHARS,
      navLabelChars: s.ROUTE_NAV_LABEL_MAX_CHARS,
      groupChars: s.ROUTE_GROUP_MAX_CHARS,
      routes: s.ROUTE_TABLE_MAX_ROUTES,
      tableBytes: s.ROUTE_TABLE_MAX_BYTES,
    },
    trustProxy: s.TRUST_PROXY,
    databaseUrl: s.DATABASE_URL,
    metricsToken: s.METRICS_TOKEN,
    beaconRateLimit: s.BEACON_RATE_LIMIT,
    canary: {
      maxErrorRate: s.CANARY_MAX_ERROR_RATE,
      minViews: s.CANARY_MIN_VIEWS,
      windowSeconds: s.CANARY_WINDOW_SECONDS,
      intervalMs: s.CANARY_JUDGE_SECONDS * 1000,
    },
    connections: {
      headersTimeoutMs: s.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: s.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: s.KEEP_ALIVE_TIMEOUT_MS,
      maxPerClient: s.MAX_CONNECTIONS_PER_CLIENT,
      maxConnections: CONNECTION_LIMITS.maxConnections,
    },
    replicaName: s.REPLICA_NAME,
    logLevel: s.LOG_LEVEL,
    lastGood: {
      maxAgeMs: s.LAST_GOOD_SECONDS * 1000,
      maxPages: s.LAST_GOOD_PAGES,
      maxPageBytes: s.LAST_GOOD_PAGE_BYTES,
    },
  };
}
