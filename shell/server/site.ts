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
import { beaconRoutes } from './canary/beacon';
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
import pages from './pages/plugin';
import render from './render/plugin';
import { WARM_LIMIT_MS } from './render/pool';
import { seoRoutes } from './pages/seo-plugin';
import shellBuild from './pages/shell-build-plugin';
import { sitePages } from './pages/site-pages-plugin';
import views from './previews/views-plugin';
import canary from './canary/plugin';
import pagePolicy from './pages/policy-plugin';
import { SITE_TABLE, grantsOf, readGrants } from './deploy/table-rules';
import type { SiteConfig } from './settings';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site server's settings, parsed once at start (settings.ts), read where they are used. */
    config: SiteConfig;
  }
}

/** What a site server takes besides its settings: what tests give it in their place. */
export interface SiteHooks {
  /**
   * Each group's prefixes (federation name -> prefixes); by default those of the site table
   * (`shared/contracts/site.json`), read for each deploy.
   */
  grants?: Readonly<Record<string, readonly string[]>>;
  /** Each log line's message, instead of JSON lines on stderr (tests read them). */
  log?: (message: string) => void;
  /** Node's process metrics beside the site's (default on). */
  processMetrics?: boolean;
  /** How often canaries are judged (ms), instead of CANARY_JUDGE_SECONDS: never, or faster. */
  canaryIntervalMs?: number;
  /** How long a last good page may stand in (ms), instead of LAST_GOOD_SECONDS: shorter. */
  lastGoodMaxAgeMs?: number;
}

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

export async function createSite(config: SiteConfig, hooks: SiteHooks = {}): Promise<Site> {
  const app = Fastify({
    logger: loggerOptions(hooks.log, config.LOG_LEVEL),
    // Fastify's own two lines per request are off: one line each, as the mail-service writes it.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxy(config.TRUST_PROXY),
    // Long enough for any path Node's header limit lets through; the page lookup is exact.
    routerOptions: { maxParamLength: 16 * 1024 },
    return503OnClosing: true,
    // Each step of the start bounds its own wait: the control plane's database (30 s), the shell's
    // first render process (render/pool.ts). Fastify's default of 10 s would end the start of a
    // server on a busy machine before either had given up.
    pluginTimeout: Math.max(30_000, WARM_LIMIT_MS) + 10_000,
    frameworkErrors: refuseBadTarget,
    forceCloseConnections: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    // Fastify makes the server (and binds every address a host name has); the limits go on it below.
    http: LIMITED_SERVER_OPTIONS,
  });
  app.decorate('config', config);
  // Fastify turns Node's request timeout off: a connection that declared a body and never sent it
  // stayed open for good, and a few thousand of them took every file descriptor. The stated limits
  // (@site/serving's CONNECTION_LIMITS: headers within 10 s, the whole request within 30 s, 72 s of
  // keep-alive, 256 connections per client address); main.ts applies the settings' values over them.
  limitConnections(app.server, CONNECTION_LIMITS);

  handleErrors(app);
  await app.register(requestLog);
  await app.register(shellBuild);
  await app.register(controlPlane);
  await app.register(metricsPlugin, {
    ...(hooks.processMetrics === undefined ? {} : { processMetrics: hooks.processMetrics }),
  });
  await app.register(render);
  await app.register(health);
  await app.register(pages, { lastGoodMaxAgeMs: hooks.lastGoodMaxAgeMs });
  await app.register(canary);
  await app.register(views);
  await app.register(pagePolicy);
  const given = hooks.grants;
  await app.register(deploy, {
    grants: given ? async () => grantsOf(given) : () => readGrants(SITE_TABLE),
    canaryIntervalMs: hooks.canaryIntervalMs,
  });
  await app.register(beaconRoutes);
  await app.register(integrityRoutes);
  await app.register(seoRoutes);
  await app.register(apiProxy);
  await app.register(contactFormRoutes);
  await app.register(sitePages);

  const page = async (urlPath: string) => app.pages.page(await app.live(), urlPath);
  return {
    app,
    async listen(port, host) {
      await app.ready();
      await warm(app.live(), page, config.RENDER_TIMEOUT_MS);
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
