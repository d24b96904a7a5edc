/**
 * The site server's settings, read from the environment and checked at start-up: a value that does
 * not parse stops the server with a message naming the variable and what it accepts, instead of
 * becoming `NaN` or an empty origin deep inside the server. Every time is bounded well within what
 * Node's timers hold (2^31-1 ms; a longer one fires at once). What only the machine can answer (the
 * folders exist, the host name resolves) is checked by `checkSiteMachine` before anything starts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { databaseUrlProblem } from '@site/postgres';
import { SHELL_PORT } from '@site/contracts/site';
import { trustProxySetting, type TrustProxy } from '@site/contracts/trust-proxy';
import {
  CONNECTION_LIMITS,
  LISTEN_HOST_FORMS,
  isListenHost,
  type ConnectionLimits,
} from '@site/serving';
import { DEFAULT_BEACON_RATE_LIMIT } from './http/beacon';
import { CANARY_DEFAULTS } from './canary';
import type { Judgment } from '@site/contracts/canary-judgment';
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
  /** Render processes at most per group version. */
  groupRenderWorkers: number;
  /** The largest page a group's render may give, and the memory one render process may hold. */
  render: { maxPageBytes: number; memoryMb: number };
  /** The user the render processes run as, where the site server runs as root. */
  renderUser: string;
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
  /** How canaries are judged unless their deploy says otherwise, and how often. */
  canary: Judgment & { intervalMs: number };
  /** How long a request may take to arrive, and the connections one client address may hold. */
  connections: ConnectionLimits;
  /** Undefined without REPLICA_NAME: answers do not say which replica gave them. */
  replicaName?: string | undefined;
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

const host = z.string().refine(isListenHost, {
  error: (issue) =>
    `"${String(issue.input)}" is not an address to listen on (${LISTEN_HOST_FORMS})`,
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
  const problem = databaseUrlProblem(value);
  if (!problem) return value;
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
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
  GROUP_RENDER_WORKERS: wholeNumber('a number of render processes', 1, 16).default(
    DEFAULTS.groupRenderWorkers,
  ),
  // A page's markup is some 50 KB; 64 KB to 64 MB.
  RENDER_MAX_PAGE_BYTES: wholeNumber('a number of bytes', 65_536, 67_108_864).default(
    DEFAULTS.maxPageBytes,
  ),
  // Below 96 MB a render process cannot hold React and the shell's build.
  RENDER_MEMORY_MB: wholeNumber('a number of megabytes', 96, 8192).default(DEFAULTS.renderMemoryMb),
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
  // Sent in a response header: letters, digits, dots, dashes and underscores only.
  REPLICA_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, {
      error: (issue) =>
        `"${String(issue.input)}" is not a replica name (1 to 64 letters, digits, ".", "-" or "_", such as site-1)`,
    })
    .optional(),
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
    render: { maxPageBytes: s.RENDER_MAX_PAGE_BYTES, memoryMb: s.RENDER_MEMORY_MB },
    renderUser: s.RENDER_USER,
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
  };
}

/** What is wrong with a folder the server needs, or undefined when it is a folder it may use. */
function folderProblem(dir: string, writable: boolean): string | undefined {
  let isFolder: boolean;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? `${dir} does not exist`
      : `${dir} cannot be read (${code ?? String(error)})`;
  }
  if (!isFolder) return `${dir} is a file, not a folder`;
  try {
    accessSync(dir, writable ? constants.R_OK | constants.W_OK | constants.X_OK : constants.R_OK);
  } catch {
    return `${dir} is not ${writable ? 'writable' : 'readable'} by this user`;
  }
  return undefined;
}

const statOk = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The shell's build files the server loads at start. */
const SHELL_BUILD = ['server/render.js', 'public/index.html'];

/** How long a host name may take to resolve at start. */
const LOOKUP_TIMEOUT_MS = 5000;

/**
 * What the environment alone cannot say: SHELL_DIST holds the shell's build; DEPLOY_DIR is a
 * folder that exists (the server never makes it: a mistyped one would start the site with an empty
 * manifest and every group's page a 404; `npm start` makes the checkout's own on its first run),
 * writable when the manifest is kept there; HOST resolves. Throws a SettingsError naming each
 * variable that fails, so the server stops before it starts anything.
 */
export async function checkSiteMachine(settings: SiteSettings): Promise<void> {
  const problems: string[] = [];
  const shell = folderProblem(settings.shellDist, false);
  const missing = SHELL_BUILD.find((file) => !statOk(path.join(settings.shellDist, file)));
  if (shell)
    problems.push(`SHELL_DIST: ${shell}: expected the shell's build (npm run build -w shell)`);
  else if (missing) {
    problems.push(
      `SHELL_DIST: ${settings.shellDist} holds no build of the shell (no ${missing}): build it with npm run build -w shell, or correct the path`,
    );
  }
  const deploy = folderProblem(settings.deployDir, !settings.databaseUrl);
  if (deploy) {
    problems.push(
      `DEPLOY_DIR: ${deploy}: expected the folder of the live manifest (npm start makes the checkout's deploy/ on its first run)`,
    );
  }
  if (settings.host && net.isIP(settings.host) === 0) {
    const name = settings.host;
    let timer: NodeJS.Timeout | undefined;
    const problem = await Promise.race([
      lookup(name, { all: true }).then(
        () => undefined,
        (error: NodeJS.ErrnoException) =>
          `"${name}" does not resolve (${error.code ?? error.message})`,
      ),
      new Promise<string>((resolve) => {
        timer = setTimeout(
          () => resolve(`"${name}" did not resolve within ${LOOKUP_TIMEOUT_MS / 1000} s`),
          LOOKUP_TIMEOUT_MS,
        );
      }),
    ]);
    clearTimeout(timer);
    if (problem)
      problems.push(`HOST: ${problem}: expected an address of this machine or a name of one`);
  }
  if (problems.length) throw new SettingsError(problems);
}

/**
 * A listen that failed, as the setting to change: PORT for a port in use or not allowed, HOST for
 * an address this machine does not have; undefined for anything else.
 */
export function listenProblem(
  error: unknown,
  settings: Pick<SiteSettings, 'port' | 'host'>,
): SettingsError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new SettingsError([`PORT: ${settings.port} is in use by another process`]);
  }
  if (code === 'EACCES') {
    return new SettingsError([`PORT: this user may not listen on ${settings.port}`]);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new SettingsError([
      `HOST: "${settings.host ?? ''}" is not an address of this machine (${code})`,
    ]);
  }
  return undefined;
}
