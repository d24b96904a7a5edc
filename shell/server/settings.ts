/**
 * The site server's settings, read from the environment and checked at start-up: a value that does
 * not parse stops the server with a message naming the variable and what it accepts, instead of
 * becoming `NaN` or an empty origin deep inside the server.
 */
import net from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SHELL_PORT } from '@site/contracts/site';
import { trustProxySetting, type TrustProxy } from '@site/contracts/trust-proxy';
import { DEFAULT_BEACON_RATE_LIMIT } from './http/beacon';
import { CANARY_DEFAULTS } from './canary';
import { DEFAULTS } from './site';

const ROOT = path.join(__dirname, '..', '..');

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
  /**
   * Undefined without DEPLOY_TOKEN: the deploy API is off. `previewSecret` signs preview links;
   * undefined: one derived from the token.
   */
  deploy:
    { token: string; allowedOrigins: string[]; previewSecret?: string | undefined } | undefined;
  trustProxy: TrustProxy;
  /** Undefined without DATABASE_URL: the live manifest and its history are files in deployDir. */
  databaseUrl?: string | undefined;
  /** Undefined without METRICS_TOKEN: `GET /_metrics` is off. */
  metricsToken?: string | undefined;
  /** Reports `POST /_beacon` takes from one client address per minute. */
  beaconRateLimit: number;
  /** A canary is rolled back by itself at this many errors within the window. */
  canary: { errorThreshold: number; windowSeconds: number };
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

const wholeNumber = (what: string, min: number, max: number) =>
  z.string().transform((value, ctx) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not ${what} (${min} to ${max})` });
      return z.NEVER;
    }
    return n;
  });

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * An http(s) URL that is only an origin (no path beyond `/`, no query, fragment or credentials),
 * as `URL.origin`; or what is wrong with it.
 */
function checkOrigin(value: string): { origin: string } | { problem: string } {
  const url = parseUrl(value);
  if (!url) return { problem: 'is not a URL' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `is not http or https (${url.protocol.slice(0, -1)})` };
  }
  if (url.pathname !== '/') return { problem: `has a path (${url.pathname})` };
  if (url.search || url.hash) return { problem: 'has a query or a fragment' };
  if (url.username || url.password) return { problem: 'holds credentials' };
  return { origin: url.origin };
}

const origin = (example: string) =>
  z.string().transform((value, ctx) => {
    const checked = checkOrigin(value);
    if ('problem' in checked) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" ${checked.problem}: expected an http(s) origin such as ${example}`,
      });
      return z.NEVER;
    }
    return checked.origin;
  });

const HOST_NAME =
  /^(?=.{1,253}$)[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)*$/i;

const host = z.string().refine((value) => net.isIP(value) !== 0 || HOST_NAME.test(value), {
  error: (issue) =>
    `"${String(issue.input)}" is not an address to listen on (an IP address such as 127.0.0.1 or ::, or a host name)`,
});

const folder = z.string().transform((value) => path.resolve(value));

// The token travels in an Authorization header: printable, no spaces. It is a secret, so a bad one
// is described, never echoed.
const deployToken = z.string().refine((value) => /^[\x21-\x7e]{16,}$/.test(value), {
  error: (issue) =>
    `expected at least 16 printable characters without spaces (got ${String(issue.input).length} characters)`,
});

const originList = z.string().transform((value, ctx) => {
  const out: string[] = [];
  for (const entry of value.split(',').map((o) => o.trim())) {
    if (!entry) continue;
    const checked = checkOrigin(entry);
    if ('problem' in checked) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" ${checked.problem}: expected comma-separated http(s) origins such as https://cdn.example.com`,
      });
      return z.NEVER;
    }
    if (!out.includes(checked.origin)) out.push(checked.origin);
  }
  return out;
});

/**
 * A PostgreSQL connection URL. It may hold a password, so a bad one is described by what is wrong,
 * never echoed.
 */
const databaseUrl = z.string().transform((value, ctx) => {
  const url = parseUrl(value);
  const problem = !url
    ? 'is not a URL'
    : url.protocol !== 'postgres:' && url.protocol !== 'postgresql:'
      ? `is not postgres or postgresql (${url.protocol.slice(0, -1)})`
      : !url.hostname && !url.searchParams.get('host')
        ? 'names no host'
        : undefined;
  if (problem) {
    ctx.addIssue({
      code: 'custom',
      message: `the value ${problem}: expected a URL such as postgres://user:password@db.example.com:5432/site`,
    });
    return z.NEVER;
  }
  return value;
});

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
  DEPLOY_TOKEN: deployToken.optional(),
  DEPLOY_ALLOWED_ORIGINS: originList.default([]),
  // Signs preview links; every replica needs the same one (default: derived from DEPLOY_TOKEN).
  PREVIEW_SECRET: deployToken.optional(),
  TRUST_PROXY: trustProxySetting.default(false),
  DATABASE_URL: databaseUrl.optional(),
  // The same rule as the deploy token's (and the mail-service's METRICS_TOKEN).
  METRICS_TOKEN: deployToken.optional(),
  BEACON_RATE_LIMIT: wholeNumber('a number of reports per minute', 1, 100_000).default(
    DEFAULT_BEACON_RATE_LIMIT,
  ),
  CANARY_ERROR_THRESHOLD: wholeNumber('a number of errors', 1, 100_000).default(
    CANARY_DEFAULTS.errorThreshold,
  ),
  CANARY_WINDOW_SECONDS: wholeNumber('a whole number of seconds', 10, 900).default(
    CANARY_DEFAULTS.windowSeconds,
  ),
});

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
  if (!result.success) {
    throw new SettingsError(
      result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const s = result.data;
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
    deploy:
      s.DEPLOY_TOKEN === undefined
        ? undefined
        : {
            token: s.DEPLOY_TOKEN,
            allowedOrigins: s.DEPLOY_ALLOWED_ORIGINS,
            ...(s.PREVIEW_SECRET ? { previewSecret: s.PREVIEW_SECRET } : {}),
          },
    trustProxy: s.TRUST_PROXY,
    databaseUrl: s.DATABASE_URL,
    metricsToken: s.METRICS_TOKEN,
    beaconRateLimit: s.BEACON_RATE_LIMIT,
    canary: { errorThreshold: s.CANARY_ERROR_THRESHOLD, windowSeconds: s.CANARY_WINDOW_SECONDS },
  };
}
