/**
 * The site server, the shell's deployable: one Fastify server made of plugins, each in the folder
 * of its feature (the map: README.md beside this file), in the order they depend on one another. It owns the live deployment
 * manifest, composes every page from its parts (the shell's frame, the owning group's page), serves
 * the shell's files, the sitemap and robots.txt, forwards `/api/*` to the mail-service, takes the
 * no-script contact form, counts what it serves, and with a token answers the deploy API.
 *
 * Every request is hostile until parsed, and no error leaves a request unanswered: a bad request is
 * a 4xx, a page that cannot be rendered is the 503 notice, and the process stays up.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  CONNECTION_LIMITS,
  LIMITED_SERVER_OPTIONS,
  limitConnections,
  listenOn,
} from '@site/serving';
import type { LiveManifest } from './control-plane';
import { refuseBadTarget, trustProxy } from './http/fastify-options';
import { apiProxy } from './contact/api-proxy';
import { DEFAULT_BEACON_RATE_LIMIT, beaconRoutes } from './canary/beacon';
import { contactFormRoutes } from './contact/no-script-form';
import { integrityRoutes } from './pages/integrity-reports';
import { requestLog } from './http/request-log-plugin';
import { loggerOptions } from './http/logger';
import type { SiteMetrics } from './metrics/metrics';
import type { SentPage } from './pages/cache';
import controlPlane from './control-plane/plugin';
import deploy from './deploy/plugin';
import { handleErrors } from './http/errors-plugin';
import health from './metrics/health-plugin';
import { metricsPlugin } from './metrics/plugin';
import pages, { type PageCacheSettings } from './pages/plugin';
import render, { type RenderSettings } from './render/plugin';
import { seoRoutes } from './pages/seo-plugin';
import shellBuild from './pages/shell-build-plugin';
import { sitePages } from './pages/site-pages-plugin';
import views, { previewSecretOf } from './previews/views-plugin';
import { CANARY_DEFAULTS } from './canary/judge';
import canary from './canary/plugin';
import pagePolicy from './pages/policy-plugin';
import { viewKeyOf } from './canary/view-tokens';
import { grantsOf, readGrants } from './deploy/table-rules';
import { DEFAULTS, type SiteOptions } from './config/site-options';

export { DEFAULTS, type SiteOptions } from './config/site-options';

export interface Site {
  app: FastifyInstance;
  /** Starts answering, once the render processes are warm; resolves to the address. */
  listen(port: number, host?: string): Promise<string>;
  /** The page at a path as the site would answer it now. */
  page(urlPath: string): Promise<SentPage>;
  /** The paths the site has: the shell's own and every remote's. */
  paths(): Promise<string[]>;
  manifest(): Promise<LiveManifest>;
  /** The metrics, and the error counts per group and version over a window (beacons, renders). */
  metrics: SiteMetrics;
  close(): Promise<void>;
}

/** Grants given (tests), or the site table's, read for each change. */
const grantsFrom = (given: SiteOptions['grants']) =>
  given ? async () => grantsOf(given) : () => readGrants(DEFAULTS.siteTable);

export async function createSite(options: SiteOptions): Promise<Site> {
  const app = Fastify({
    logger: loggerOptions(options.log, options.logLevel),
    // Fastify's own two lines per request are off: one line each, as the mail-service writes it.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxy(options.trustProxy),
    // Long enough for any path Node's header limit lets through; the page lookup is exact.
    routerOptions: { maxParamLength: 16 * 1024 },
    return503OnClosing: true,
    frameworkErrors: refuseBadTarget,
    forceCloseConnections: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    // Fastify makes the server (and binds every address a host name has); the limits go on it below.
    http: LIMITED_SERVER_OPTIONS,
  });
  // Fastify turns Node's request timeout off: a connection that declared a body and never sent it
  // stayed open for good, and a few thousand of them took every file descriptor. The stated limits
  // (@site/serving's CONNECTION_LIMITS: headers within 10 s, the whole request within 30 s, 72 s of
  // keep-alive, 256 connections per client address); main.ts applies the settings' values over them.
  limitConnections(app.server, CONNECTION_LIMITS);
  const fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULTS.fetchTimeoutMs;
  const deployToken = options.deploy?.token;

  handleErrors(app);
  await app.register(requestLog);
  await app.register(shellBuild, { shellDist: options.shellDist, siteUrl: options.siteUrl });
  await app.register(controlPlane, {
    deployDir: options.deployDir,
    databaseUrl: options.databaseUrl,
  });
  await app.register(metricsPlugin, {
    token: options.metricsToken,
    ...(options.processMetrics === undefined ? {} : { processMetrics: options.processMetrics }),
  });
  await app.register(render, {
    timeoutMs: options.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs,
    fetchTimeoutMs,
    shellProcesses: options.renderWorkers,
    groupProcesses: options.groupRenderWorkers ?? DEFAULTS.groupRenderWorkers,
    maxPageBytes: options.render?.maxPageBytes ?? DEFAULTS.maxPageBytes,
    memoryMb: options.render?.memoryMb ?? DEFAULTS.renderMemoryMb,
    groupMemoryMb: options.render?.groupMemoryMb ?? DEFAULTS.groupRenderMemoryMb,
    previewPools: options.render?.previewPools ?? DEFAULTS.previewRenderPools,
    user: options.renderUser ?? DEFAULTS.renderUser,
  } satisfies RenderSettings);
  await app.register(health, { replicaName: options.replicaName });
  await app.register(pages, {
    ...DEFAULTS.cache,
    ...options.cache,
    partBytes: DEFAULTS.partCacheBytes,
    lastGood: { ...DEFAULTS.lastGood, ...options.lastGood },
    deployDir: options.deployDir,
    databaseUrl: options.databaseUrl,
    mailService: options.apiTarget,
  } satisfies PageCacheSettings);
  await app.register(canary, {
    viewKey: viewKeyOf(options.deploy ? previewSecretOf(options.deploy) : undefined),
    deployDir: options.deployDir,
    databaseUrl: options.databaseUrl,
  });
  await app.register(views, {
    previewSecret: options.deploy ? previewSecretOf(options.deploy) : undefined,
    allowedOrigins: options.deploy?.allowedOrigins ?? [],
    fetchTimeoutMs,
  });
  await app.register(pagePolicy);
  await app.register(deploy, {
    token: deployToken,
    allowedOrigins: options.deploy?.allowedOrigins ?? [],
    fetchTimeoutMs,
    checkTimeoutMs: options.deploy?.checkTimeoutMs ?? DEFAULTS.deployCheckTimeoutMs,
    grants: grantsFrom(options.grants),
    routeLimits: { ...DEFAULTS.routeLimits, ...options.routeLimits },
    canary: {
      ...CANARY_DEFAULTS,
      intervalMs: DEFAULTS.canaryIntervalMs,
      ...options.canary,
    },
  });
  await app.register(beaconRoutes, {
    rateLimit: options.beaconRateLimit ?? DEFAULT_BEACON_RATE_LIMIT,
  });
  await app.register(integrityRoutes);
  await app.register(seoRoutes);
  await app.register(apiProxy, { target: options.apiTarget });
  await app.register(contactFormRoutes, { mailService: options.apiTarget });
  await app.register(sitePages);

  const page = async (urlPath: string) => app.pages.page(await app.live(), urlPath);
  return {
    app,
    async listen(port, host) {
      await app.ready();
      await warm(app.live(), page, options.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs);
      return listenOn(app, port, host);
    },
    page,
    paths: async () => app.pages.paths(await app.controlPlane.get()),
    manifest: () => app.controlPlane.get(),
    metrics: app.metrics,
    close: () => app.close(),
  };
}

/**
 * Before the server takes its first visitor: the home page and one page of each live group compose,
 * all at once, so every group's render processes are up. A replica that started among busy ones
 * would otherwise meet its first visitors with every render process still starting, slow enough
 * for a balancer to give up on it. A group whose host is down does not hold the start up for long:
 * the wait is bounded, and its page then composes when first asked for.
 */
async function warm(
  live: Promise<LiveManifest> | LiveManifest,
  page: (urlPath: string) => Promise<unknown>,
  limitMs: number,
): Promise<void> {
  const { manifest } = await live;
  const paths = ['/', ...manifest.remotes.flatMap((r) => r.routes.slice(0, 1).map((x) => x.path))];
  const pages = Promise.allSettled(paths.map((p) => page(p)));
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  await Promise.race([pages, limit]);
  clearTimeout(timer);
}
