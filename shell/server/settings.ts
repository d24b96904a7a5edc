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
import { CANARY_JUDGMENT_DEFAULTS } from '@site/contracts/canary-plan';
import { deployToken, folder, host, origin, originList, wholeNumber } from './config/setting-forms';
import { databaseUrlSetting } from '@site/postgres/setting';

const ROOT = path.join(__dirname, '..', '..');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class SettingsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** Render processes: one fewer than the cores, so the server's own process keeps one, at least 1, at most 4. */
export const defaultRenderWorkers = (cores = availableParallelism()): number =>
  Math.max(1, Math.min(4, cores - 1));

/**
 * Every setting of the site server: its variable, the form it takes with its bounds, its default,
 * and why. The server reads the parsed values as `app.config.<VARIABLE>` where it uses them;
 * `.env.example` and docs/configuration.md document each (env-example.test.ts keeps them true).
 */
const schema = z.object({
  PORT: wholeNumber('a port number', 1, 65535).default(SHELL_PORT),
  // Undefined: every interface.
  HOST: host.optional(),
  // The public origin, for canonical links, Open Graph URLs and the sitemap (default: localhost).
  SITE_URL: origin('https://www.example.com').optional(),
  // The shell's build: public/ (what visitors may fetch) and server/ (its Node build).
  SHELL_DIST: folder.default(path.join(ROOT, 'shell', 'dist')),
  // What an empty database starts from (<DEPLOY_DIR>/remotes.json, and the files an earlier
  // single server kept its state in: control-plane/move-in.ts).
  DEPLOY_DIR: folder.default(path.join(ROOT, 'deploy')),
  // The proxy keeps each request's own path (/api/…): a path here would be silently ignored.
  MAIL_SERVICE_URL: origin('http://127.0.0.1:3005').default('http://127.0.0.1:3005'),
  // One page's render, a group's code included, counted from the render's start.
  RENDER_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 100, 60_000).default(3000),
  // Fetching one of a group's files from its origin.
  FETCH_TIMEOUT_MS: wholeNumber('a whole number of milliseconds', 100, 60_000).default(2500),
  // The shell's own render processes (frames and the shell's pages).
  RENDER_WORKERS: wholeNumber('a number of render processes', 1, 16).default(() =>
    defaultRenderWorkers(),
  ),
  // Render processes at most per group version.
  GROUP_RENDER_WORKERS: wholeNumber('a number of render processes', 1, 16).default(2),
  // A page's markup is some 50 KB; twenty times that is no page a visitor should get. 64 KB-64 MB.
  RENDER_MAX_PAGE_BYTES: wholeNumber('a number of bytes', 65_536, 67_108_864).default(1024 * 1024),
  // A render process holds about 60 MB after a few hundred pages; below 96 MB it cannot hold
  // React and the shell's build.
  RENDER_MEMORY_MB: wholeNumber('a number of megabytes', 96, 8192).default(256),
  // All of one group's render processes, every version together; at least RENDER_MEMORY_MB. Four
  // processes of 256 MB: the live version's two, and room for a canary or previews.
  GROUP_RENDER_MEMORY_MB: wholeNumber('a number of megabytes', 96, 65_536).default(1024),
  // Versions of a group that are not live (previews, deploys being checked) with pools at once.
  PREVIEW_RENDER_POOLS: wholeNumber('a number of render pools', 1, 16).default(2),
  // The user the render processes run as, where the site server runs as root.
  RENDER_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/i, {
      error: (issue) => `"${String(issue.input)}" is not a user name (such as nobody)`,
    })
    .default('nobody'),
  // The deploy API (/_deploy/*) answers the bearer of this token; off without it.
  DEPLOY_TOKEN: deployToken.optional(),
  DEPLOY_ALLOWED_ORIGINS: originList.default([]),
  // Signs preview links; every replica needs the same one (default: derived from DEPLOY_TOKEN).
  PREVIEW_SECRET: deployToken.optional(),
  // Long enough for a large group's every page rendered on a busy machine; no team waits on it.
  DEPLOY_CHECK_TIMEOUT_S: wholeNumber('a whole number of seconds', 5, 3600).default(120),
  // What a deploy may ask of every page (deploy/table-rules.ts). A real table's longest title is 30
  // characters, label 30, group name 21; its largest group 11 routes of some 420 bytes each, and
  // the scale benchmark grows one to about 1,000. Each limit is four times that or more, and
  // together they keep another owner's page within a few kilobytes.
  ROUTE_TITLE_MAX_CHARS: wholeNumber('a number of characters', 20, 1000).default(120),
  ROUTE_NAV_LABEL_MAX_CHARS: wholeNumber('a number of characters', 10, 200).default(60),
  ROUTE_GROUP_MAX_CHARS: wholeNumber('a number of characters', 10, 200).default(60),
  ROUTE_TABLE_MAX_ROUTES: wholeNumber('a number of routes', 1, 100_000).default(2000),
  // Fetched into the site server's memory for each deploy: 64 KB to the 20 MB of any remote file.
  ROUTE_TABLE_MAX_BYTES: wholeNumber('a number of bytes', 65_536, 20_971_520).default(1024 * 1024),
  // The proxies whose X-Forwarded-* headers count (Fastify's trustProxy).
  TRUST_PROXY: trustProxySetting.default(false),
  // The control plane, in PostgreSQL shared by every replica: the live manifest and its history,
  // the groups' deploy tokens, the canary counts and the last good pages. Required; `npm start`
  // passes its embedded PostgreSQL's. Holds credentials: never logged.
  DATABASE_URL: databaseUrlSetting(
    'the live manifest, its history, the deploy tokens and the canary counts are kept in PostgreSQL',
  ),
  // GET /_metrics answers with this bearer token; off (404) without it. The same rule as the
  // deploy token's (and the mail-service's METRICS_TOKEN).
  METRICS_TOKEN: deployToken.optional(),
  // Reports POST /_beacon takes from one client address per minute.
  BEACON_RATE_LIMIT: wholeNumber('a number of reports per minute', 1, 100_000).default(30),
  // How canaries are judged unless their deploy says otherwise (@site/contracts/canary-plan, which
  // the deploy command's help states too).
  CANARY_MAX_ERROR_RATE: z
    .string()
    .trim()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, {
      error: (issue) => `"${String(issue.input)}" is not a share from 0 to 1 (such as 0.02)`,
    })
    .transform(Number)
    .refine((n) => n > 0, { error: 'a share above 0 (such as 0.02)' })
    .default(CANARY_JUDGMENT_DEFAULTS.maxErrorRate),
  CANARY_MIN_VIEWS: wholeNumber('a number of views', 1, 1_000_000).default(
    CANARY_JUDGMENT_DEFAULTS.minViews,
  ),
  CANARY_WINDOW_SECONDS: wholeNumber('a whole number of seconds', 10, 3600).default(
    CANARY_JUDGMENT_DEFAULTS.windowSeconds,
  ),
  // Counts reach the control plane, and canaries are judged, this often.
  CANARY_JUDGE_SECONDS: wholeNumber('a whole number of seconds', 1, 60).default(5),
  // How long a request may take to arrive, and the connections one client address may hold
  // (@site/serving's stated limits).
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
  // Composed pages kept in memory, whole, as compressed answers; a quarter of it again for the
  // hottest pages' joined answers. 1,000 routes of some 15 KB compressed each fit in 16 MB.
  PAGE_CACHE_MB: wholeNumber('a number of megabytes', 16, 4096).default(64),
  // A group page whose render fails stands in from its last good composition this long: a day
  // by default (an outage outlasts a restart), a minute to 30 days.
  LAST_GOOD_SECONDS: wholeNumber('a whole number of seconds', 60, 2_592_000).default(24 * 60 * 60),
  LAST_GOOD_PAGES: wholeNumber('a number of pages', 1, 1_000_000).default(5000),
  // 1 KB to 64 MB; a group page's markup is some 50 KB.
  LAST_GOOD_PAGE_BYTES: wholeNumber('a number of bytes', 1024, 67_108_864).default(512 * 1024),
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

/** The site server's settings, parsed and frozen: `app.config`. */
export type SiteConfig = Readonly<
  Omit<z.output<typeof schema>, 'SITE_URL' | 'DEPLOY_ALLOWED_ORIGINS' | 'TRUST_PROXY'> & {
    /** The public origin, without a trailing slash. */
    SITE_URL: string;
    DEPLOY_ALLOWED_ORIGINS: readonly string[];
    TRUST_PROXY: TrustProxy;
  }
>;

/** The name of a setting. */
export type SiteSettingName = keyof typeof schema.shape;

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
export function parseSiteSettings(
  env: NodeJS.ProcessEnv | Partial<Record<SiteSettingName, string>>,
): SiteConfig {
  const input: Record<string, string> = {};
  for (const name of SITE_SETTING_NAMES) {
    const value = (env as Record<string, string | undefined>)[name]?.trim();
    if (value) input[name] = value;
  }
  const result = schema.safeParse(input);
  // Settings this server once read and reads no more: set, they would silently change nothing.
  const retired = Object.entries(RETIRED_SETTINGS)
    .filter(([name]) => (env as Record<string, string | undefined>)[name]?.trim())
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
  const trust = s.TRUST_PROXY;
  return Object.freeze({
    ...s,
    SITE_URL: s.SITE_URL ?? `http://localhost:${s.PORT}`,
    DEPLOY_ALLOWED_ORIGINS: Object.freeze(s.DEPLOY_ALLOWED_ORIGINS),
    TRUST_PROXY: Array.isArray(trust) ? (Object.freeze([...trust]) as string[]) : trust,
  });
}

/** The connection limits the settings give, over the stated ones. */
export const connectionLimits = (config: SiteConfig): ConnectionLimits => ({
  headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
  requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
  maxPerClient: config.MAX_CONNECTIONS_PER_CLIENT,
  maxConnections: CONNECTION_LIMITS.maxConnections,
});
