/**
 * The site server: the shell's deployable. It owns the live deployment manifest (`/remotes.json`),
 * composes every page per request from the shell's layout for that manifest and the owning
 * remote's server render of its current version, serves the shell's files, `sitemap.xml` and
 * `robots.txt` from the live manifest, forwards `/api/*` to the mail-service and, with a token,
 * answers the deploy API (`/_deploy/*`).
 *
 * One Fastify server, routes registered per concern (http/, deploy/api.ts); every request is
 * hostile until parsed, and no error leaves a request unanswered: a bad request is a 4xx, a page
 * that cannot be rendered is the 503 notice, and the process stays up.
 */
import { createHmac } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import encodeUrl from 'encodeurl';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { RemoteDeployment } from '@site/contracts';
import { REVALIDATE, createLimitedServer, listenOn } from '@site/serving';
import { composePage, loadShellTemplate, type ShellTemplate } from './compose';
import { NOT_FOUND_PATH, PageComposer } from './composer';
import { scriptJson } from './manifest-store';
import type { LiveManifest } from './control-plane';
import { openControlPlane } from './control-plane/open';
import { deployApi } from './deploy/api';
import { Deployer } from './deploy/deployer';
import { reservedPaths } from './deploy/reserved';
import { apiProxy } from './http/api-proxy';
import { DEFAULT_BEACON_RATE_LIMIT, beaconRoutes } from './http/beacon';
import { CONTACT_PATH, contactFormRoutes } from './http/contact-form';
import { pageRoutes, type PageSource } from './http/pages';
import { sendComposed } from './http/send-body';
import { SiteMetrics, metricsRoutes } from './metrics';
import { ComposedPage, PageCache } from './page-cache';
import type { ContactFormState } from '../src/pages/contact/form-state';
import { fetchRemoteFile, httpOrigin } from './remote-files';
import {
  DEFAULT_PREVIEW_SECONDS,
  PREVIEW_PATH,
  PreviewManifests,
  PreviewSigner,
  previewBar,
  previewCookie,
  type PreviewClaims,
} from './preview';
import { CANARY_DEFAULTS, CanaryViews, CanaryWatch, placeVisitor } from './canary';
import { chooseWall, describeWall } from './render/launcher';
import { RenderPools, type RenderLimits } from './render/pools';
import type { ShellServerBuild } from './render/protocol';
import { RemoteAssets } from './remote-assets';
import { robotsTxt, sitemapXml } from './seo-files';

export interface SiteOptions {
  /** The shell's build: `public/` (what visitors may fetch) and `server/` (its Node build). */
  shellDist: string;
  /**
   * Where the live manifest lives: `<deployDir>/remotes.json`; with a database, what an empty one
   * starts from.
   */
  deployDir: string;
  /** PostgreSQL shared by replicas for the live manifest and its history; files when absent. */
  databaseUrl?: string | undefined;
  /** The mail-service, for `/api/*`. */
  apiTarget: string;
  /** The site's public origin, for canonical links, Open Graph URLs and the sitemap. */
  siteUrl: string;
  /** Time limit of one page's render, remote code included, counted from the render's start. */
  renderTimeoutMs?: number;
  /** Time limit of fetching one of a remote's files. */
  fetchTimeoutMs?: number;
  /** Render processes of the shell's own (frames and the shell's pages). */
  renderWorkers?: number;
  /** Render processes at most per group version. */
  groupRenderWorkers?: number;
  /** The largest page markup a render may give, and the memory one render process may hold. */
  render?: Partial<Pick<RenderLimits, 'maxPageBytes' | 'memoryMb'>>;
  /** The user the render processes run as, where the site server runs as root. */
  renderUser?: string;
  cache?: { maxEntries?: number; maxBytes?: number; failedTtlMs?: number };
  /**
   * The deploy API (`/_deploy/*`); off without a token. Preview links are signed with
   * `previewSecret` (every replica must share it), by default one derived from the token.
   */
  deploy?: { token: string; allowedOrigins: readonly string[]; previewSecret?: string | undefined };
  /**
   * The proxies in front of this server whose `X-Forwarded-*` headers count (Fastify's
   * `trustProxy`: `true`, a hop count, or addresses/subnets/`loopback`).
   */
  trustProxy?: false | number | string[];
  /** When a canary is rolled back by itself: this many errors within the window (seconds). */
  canary?: { errorThreshold: number; windowSeconds: number };
  /** `GET /_metrics` answers with this bearer token; off (404) without it. */
  metricsToken?: string | undefined;
  /** Reports `POST /_beacon` accepts per client address per minute. */
  beaconRateLimit?: number;
  /** Node's process metrics beside the site's (default on). */
  processMetrics?: boolean;
  log?: (message: string) => void;
}

export interface Site {
  app: FastifyInstance;
  /** Starts answering, once the render processes are warm; resolves to the address. */
  listen(port: number, host?: string): Promise<string>;
  /** The page at a path as the site would answer it now. */
  page(urlPath: string): Promise<ComposedPage>;
  /** The paths the site has: the shell's own and every remote's. */
  paths(): Promise<string[]>;
  manifest(): Promise<LiveManifest>;
  /** The metrics, and the error counts per group and version over a window (beacons, renders). */
  metrics: SiteMetrics;
  close(): Promise<void>;
}

/** A previewing browser's answers: for it alone, and never indexed. */
const PREVIEW_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' };

/** The key under which every unknown path's 404 page is cached: one page, not one per path. */
const NOT_FOUND_KEY = '404';

export const DEFAULTS = {
  renderTimeoutMs: 3000,
  fetchTimeoutMs: 2500,
  groupRenderWorkers: 2,
  /** A page's markup is some 50 KB; twenty times that is no page a visitor should get. */
  maxPageBytes: 1024 * 1024,
  /** A render process holds about 60 MB after a few hundred pages. */
  renderMemoryMb: 256,
  renderUser: 'nobody',
  cache: { maxEntries: 2000, maxBytes: 64 * 1024 * 1024, failedTtlMs: 5000 },
  partCacheBytes: 32 * 1024 * 1024,
};

const MAX_REMOTE_FILE = 20 * 1024 * 1024;

/** A hop count trusts the nearest `n` proxies (Express's meaning, which the settings share). */
const trustProxy = (value: SiteOptions['trustProxy']) =>
  typeof value === 'number' ? (_address: string, hop: number) => hop < value : (value ?? false);
const HTML = 'text/html; charset=utf-8';

export async function createSite(options: SiteOptions): Promise<Site> {
  const log = options.log ?? ((message: string) => console.error(message));
  const shellDist = path.resolve(options.shellDist);
  const publicDir = path.join(shellDist, 'public');
  const shellServerDir = path.join(shellDist, 'server');
  const siteUrl = options.siteUrl.replace(/\/+$/, '');
  const fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULTS.fetchTimeoutMs;
  // The shell's own Node build (trusted, built with this server): its paths, what it provides,
  // and the notice it renders when a page cannot be rendered at all.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shell's Node build is CommonJS
  const shell = require(path.join(shellServerDir, 'render.js')) as ShellServerBuild;
  const store = openControlPlane({
    deployDir: options.deployDir,
    databaseUrl: options.databaseUrl,
    log,
  });
  await store.start();

  /** A file of a remote's version folder: only from the origin its entry was deployed at, never following a redirect. */
  async function fetchFile(url: string, remote: RemoteDeployment): Promise<string> {
    const origin = httpOrigin(remote.entry);
    const file = await fetchRemoteFile(
      url,
      new Set(origin ? [origin] : []),
      `${url.slice(new URL('./', remote.entry).href.length) || url} of ${remote.name}@${remote.version}`,
      { timeoutMs: fetchTimeoutMs, maxBytes: MAX_REMOTE_FILE },
    );
    return file.text();
  }

  const wall = chooseWall(options.renderUser ?? DEFAULTS.renderUser);
  log(`site: render processes run ${describeWall(wall)}`);
  const makePools = (dir: string) =>
    RenderPools.create({
      shellServerDir: dir,
      wall,
      shellProcesses: options.renderWorkers ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
      groupProcesses: options.groupRenderWorkers ?? DEFAULTS.groupRenderWorkers,
      timeoutMs: options.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs,
      maxPageBytes: options.render?.maxPageBytes ?? DEFAULTS.maxPageBytes,
      memoryMb: options.render?.memoryMb ?? DEFAULTS.renderMemoryMb,
      fetchBuild: fetchFile,
      log,
    });
  let pools = await makePools(shellServerDir);
  const assets = new RemoteAssets(async (url, remote) => JSON.parse(await fetchFile(url, remote)));
  const metrics = new SiteMetrics({
    live: () => store.peek() ?? store.get(),
    cacheSize: () => ({ entries: cache.size, bytes: cache.bytes }),
    ...(options.processMetrics === undefined ? {} : { processMetrics: options.processMetrics }),
  });
  const cache = new PageCache({
    ...DEFAULTS.cache,
    ...options.cache,
    observe: (hit) => metrics.cacheLookup(hit),
  });
  let template: ShellTemplate = await loadShellTemplate(shellDist);

  /** A new shell build in place is noticed within a second, without a request waiting for it. */
  let templateChecked = Date.now();
  let templateStamp = (await fs.stat(path.join(shellServerDir, 'chunks.json'))).mtimeMs;
  function currentTemplate(): ShellTemplate {
    const now = Date.now();
    if (now - templateChecked >= 1000) {
      templateChecked = now;
      void fs
        .stat(path.join(shellServerDir, 'chunks.json'))
        .then(async ({ mtimeMs }) => {
          if (mtimeMs === templateStamp) return;
          const next = await loadShellTemplate(shellDist);
          // The render processes run the build they started with: new ones for the new build.
          const previous = pools;
          pools = await makePools(shellServerDir);
          pools.setLive(liveRemotes(store.peek() ?? (await store.get())));
          template = next;
          templateStamp = mtimeMs;
          setTimeout(() => void previous.close(), 30_000).unref();
        })
        .catch(() => {
          // A shell build in progress: keep the template in use.
        });
    }
    return template;
  }

  /** Every entry live now: each group's, and each canary's. */
  const liveRemotes = (live: LiveManifest): RemoteDeployment[] => [
    ...live.manifest.remotes,
    ...live.canaries.map((c) => c.remote),
  ];
  /** The version the render pools were last told is live: a change retires the old versions' processes. */
  let poolsSeen = '';
  function noticeLive(live: LiveManifest): LiveManifest {
    if (live.version !== poolsSeen) {
      poolsSeen = live.version;
      pools.setLive(liveRemotes(live));
    }
    return live;
  }
  const liveManifest = (): Promise<LiveManifest> | LiveManifest => {
    const known = store.peek();
    return known ? noticeLive(known) : store.get().then(noticeLive);
  };

  /** The URL of the page's share card: its remote's (in its version folder) or the shell's. */
  function shareImage(
    live: LiveManifest,
    shellTemplate: ShellTemplate,
    pagePath: string,
    known: boolean,
  ): string | null {
    for (const remote of live.manifest.remotes) {
      const route = remote.routes.find((r) => r.path === pagePath);
      if (route) return route.image ? new URL(route.image, remote.entry).href : null;
    }
    const card = shellTemplate.cards[known ? pagePath : '*'];
    return card ? `${siteUrl}/${card}` : null;
  }

  const composer = new PageComposer({
    pools: () => pools,
    shell,
    template: currentTemplate,
    siteUrl,
    metrics,
    preloads: (remote, pagePath) => assets.preloads(remote, pagePath),
    shareImage: (view, pagePath, known) => shareImage(view, currentTemplate(), pagePath, known),
    log,
    maxPartBytes: DEFAULTS.partCacheBytes,
  });

  /**
   * The whole "temporarily unavailable" page, drawn here with the shell's own code (no render
   * process, no remote code): what a visitor gets when nothing else can answer.
   */
  async function renderNotice(
    live: LiveManifest,
    pagePath: string,
    reason: string,
  ): Promise<string> {
    const result = await shell.renderUnavailable(
      {
        manifest: live.manifest,
        path: pagePath,
        loadRemote: () => Promise.reject(new Error(reason)),
      },
      reason,
    );
    return composePage(
      currentTemplate(),
      {
        head: shell.renderHead(result.meta, siteUrl),
        html: result.html,
        scripts: [],
        status: 503,
        path: result.meta.path,
        remote: result.remote !== undefined,
      },
      live.embedded,
    );
  }

  const isKnown = (live: LiveManifest, urlPath: string): boolean =>
    shell.shellPaths.includes(urlPath) ||
    live.paths.has(urlPath) ||
    live.unavailablePrefixes.some((p) => urlPath.startsWith(`${p}/`));

  async function compose(
    urlPath: string,
    known: boolean,
    shown?: LiveManifest,
  ): Promise<ComposedPage> {
    const live = shown ?? (await liveManifest());
    const key = `${live.version}:${currentTemplate().id}:${known ? urlPath : NOT_FOUND_KEY}`;
    return cache.get(key, async () => {
      const page = await composer.compose(live, urlPath, known);
      const headers: Record<string, string> = page.status === 503 ? { 'Retry-After': '30' } : {};
      return new ComposedPage(page.status, page.html, headers);
    });
  }

  /**
   * The contact page with the form in a visitor's state (what they typed, its messages, or sent),
   * for one answer: its page rendered by the shell's processes (no remote code runs on this page),
   * never cached, with the state in the page for the form's code to start from.
   */
  async function composeContact(state: ContactFormState, status: number): Promise<ComposedPage> {
    const live = await liveManifest();
    const page = await composer.compose(live, CONTACT_PATH, true, state);
    if (page.failure) throw new Error(`the contact page could not be rendered: ${page.failure}`);
    const stateScript = `<script type="application/json" id="${shell.FORM_STATE_ELEMENT}">${scriptJson(state)}</script>`;
    const end = page.html.lastIndexOf('</body>');
    return new ComposedPage(
      status,
      end === -1
        ? page.html + stateScript
        : page.html.slice(0, end) + stateScript + page.html.slice(end),
    );
  }

  // Preview links: signed by the deploy API, read from a cookie on every page request.
  const previewSigner = options.deploy?.token
    ? new PreviewSigner(
        options.deploy.previewSecret ??
          createHmac('sha256', options.deploy.token).update('site preview links').digest('hex'),
      )
    : undefined;
  const previewManifests = new PreviewManifests({
    allowedOrigins: new Set((options.deploy?.allowedOrigins ?? []).map((o) => new URL(o).origin)),
    shellPaths: shell.shellPaths,
    fetchTimeoutMs,
  });
  interface PreviewView {
    live: LiveManifest;
    claims: PreviewClaims[];
  }
  /**
   * What a request previews: the live manifest with its previewed entries in place, or undefined
   * for the live site (no cookie, no valid token, or a preview that cannot be put together now).
   */
  async function previewOf(request: FastifyRequest): Promise<PreviewView | undefined> {
    const tokens = previewSigner?.fromCookie(request.headers.cookie) ?? [];
    if (tokens.length === 0) return undefined;
    const claims = tokens.map((t) => t.claims);
    try {
      return { live: await previewManifests.get(await liveManifest(), claims), claims };
    } catch (error) {
      log(`site: a preview could not be put together, the live site is served: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * A page of a preview: composed for this request alone (never from or into the page cache), with
   * the bar that says what it shows, kept out of shared caches and search engines.
   */
  async function composePreview(
    view: PreviewView,
    urlPath: string,
    known: boolean,
  ): Promise<ComposedPage> {
    const page = await composer.compose(view.live, urlPath, known);
    const html = page.html;
    const root = html.search(/<div id="?root"?>/);
    const bar = previewBar(view.claims);
    return new ComposedPage(
      page.status,
      root === -1 ? html : html.slice(0, root) + bar + html.slice(root),
      { ...PREVIEW_HEADERS, ...(page.status === 503 ? { 'retry-after': '30' } : {}) },
    );
  }

  // Canaries: each request's cohort (set by the hook below), and the manifest a cohort sees.
  const cohorts = new WeakMap<FastifyRequest, number | null>();
  const canaryViews = new CanaryViews();
  async function cohortView(request: FastifyRequest): Promise<LiveManifest> {
    return canaryViews.view(await liveManifest(), cohorts.get(request) ?? null);
  }

  const pages: PageSource = {
    async isPage(urlPath, request) {
      const view = await previewOf(request);
      return isKnown(view?.live ?? (await cohortView(request)), urlPath);
    },
    async page(urlPath, request) {
      const view = await previewOf(request);
      if (view) {
        return isKnown(view.live, urlPath) ? composePreview(view, urlPath, true) : undefined;
      }
      const shown = await cohortView(request);
      return isKnown(shown, urlPath) ? compose(urlPath, true, shown) : undefined;
    },
    async notFound(request) {
      const view = await previewOf(request);
      return view
        ? composePreview(view, NOT_FOUND_PATH, false)
        : compose(NOT_FOUND_PATH, false, await cohortView(request));
    },
  };

  async function page(urlPath: string): Promise<ComposedPage> {
    return isKnown(await liveManifest(), urlPath)
      ? compose(urlPath, true)
      : compose(NOT_FOUND_PATH, false);
  }

  async function paths(): Promise<string[]> {
    const live = await store.get();
    return [...shell.shellPaths, ...live.paths];
  }

  /** Bodies made once per manifest version (the manifest, the sitemap) and sent many times. */
  const generated = new Map<string, ComposedPage>();
  function generatedBody(key: string, make: () => string): ComposedPage {
    let body = generated.get(key);
    if (!body) {
      if (generated.size > 16) generated.clear();
      body = new ComposedPage(200, make());
      generated.set(key, body);
    }
    return body;
  }

  const app = Fastify({
    logger: false,
    trustProxy: trustProxy(options.trustProxy),
    // Long enough for any path Node's header limit lets through; the page lookup is exact.
    routerOptions: { maxParamLength: 16 * 1024 },
    return503OnClosing: true,
    forceCloseConnections: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    // Fastify turns Node's request timeout off: a connection that declared a body and never sent
    // it stayed open for good, and a few thousand of them took every file descriptor. The stated
    // limits (@site/serving's CONNECTION_LIMITS: headers within 10 s, the whole request within
    // 30 s, 72 s of keep-alive, 256 connections per client address); main.ts applies the
    // settings' values over them.
    serverFactory: (handler) => createLimitedServer(handler),
  });

  // Anything thrown while answering: a 4xx stays what it is; anything else is logged and answered
  // with the notice a page gets when it cannot be rendered, never a bare 500.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`${error.message}\n`);
    }
    log(`site: ${request.method} ${request.url}: ${error.stack ?? error.message}`);
    if (reply.sent || reply.raw.headersSent) return;
    try {
      const live = await liveManifest();
      const notice = await renderNotice(live, '/', 'the site could not answer this request');
      const body = new ComposedPage(503, notice, { 'Retry-After': '30' });
      return sendComposed(request, reply, body, { type: HTML, cacheControl: 'no-store' });
    } catch {
      return reply
        .code(503)
        .header('retry-after', '30')
        .type('text/plain; charset=utf-8')
        .send('The site could not answer this request. Please try again in a moment.\n');
    }
  });

  // While a canary runs: a visitor without a cohort gets one with its first answer (a crawler
  // never does), and pages and the manifest are private to the visitor (they differ by cohort).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if ((await liveManifest()).canaries.length === 0) return;
    // Files are the same for every cohort (and cached publicly): only pages and the manifest.
    const pathname = request.url.split('?')[0]!;
    if (pathname !== '/remotes.json' && /\.[A-Za-z0-9]+$/.test(pathname)) return;
    const placed = placeVisitor(
      request.headers.cookie,
      request.headers['user-agent'],
      request.protocol === 'https',
    );
    cohorts.set(request, placed.cohort);
    if (placed.setCookie) reply.header('set-cookie', placed.setCookie);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (cohorts.has(request) && reply.getHeader('cache-control') === REVALIDATE) {
      reply.header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding, Cookie');
    }
    return payload;
  });

  metricsRoutes(app, metrics, options.metricsToken);
  await app.register(beaconRoutes, {
    metrics,
    rateLimit: options.beaconRateLimit ?? DEFAULT_BEACON_RATE_LIMIT,
  });

  app.get('/remotes.json', async (request, reply) => {
    const view = await previewOf(request);
    if (view) {
      return sendComposed(request, reply, new ComposedPage(200, view.live.text), {
        type: 'application/json; charset=utf-8',
        cacheControl: 'private, no-store',
        headers: PREVIEW_HEADERS,
      });
    }
    const live = await cohortView(request);
    return sendComposed(
      request,
      reply,
      generatedBody(`manifest:${live.version}`, () => live.text),
      {
        type: 'application/json; charset=utf-8',
        cacheControl: REVALIDATE,
      },
    );
  });
  app.get('/sitemap.xml', async (request, reply) => {
    const live = await liveManifest();
    const all = [...shell.shellPaths, ...live.paths];
    return sendComposed(
      request,
      reply,
      generatedBody(`sitemap:${live.version}`, () => sitemapXml(siteUrl, all)),
      { type: 'application/xml; charset=utf-8', cacheControl: 'public, max-age=300' },
    );
  });
  app.get('/robots.txt', async (request, reply) =>
    sendComposed(
      request,
      reply,
      generatedBody('robots', () => robotsTxt(siteUrl)),
      {
        type: 'text/plain; charset=utf-8',
        cacheControl: 'public, max-age=300',
      },
    ),
  );

  await app.register(apiProxy, { target: options.apiTarget });
  await app.register(contactFormRoutes, {
    siteUrl,
    mailService: options.apiTarget,
    page: () => compose(CONTACT_PATH, true),
    composeWith: composeContact,
    log,
  });

  const deploy = options.deploy?.token ? options.deploy : undefined;
  const deployer = new Deployer({
    allowedOrigins: deploy?.allowedOrigins ?? [],
    current: () => store.get(),
    history: (remote) => store.history(remote),
    publish: async (json, base, entry) => {
      const next = await store.publish(json, base, entry);
      log(`site: manifest ${next.version} is live`);
      return next;
    },
    providedVersions: shell.providedVersions,
    shellPaths: shell.shellPaths,
    reservedPaths: () => reservedPaths(publicDir),
    fetchTimeoutMs: Math.max(fetchTimeoutMs, 5000),
    // A version's pages are rendered by that version's own processes, as its visitors' will be.
    async renderCheck(manifest, pagePath) {
      const owner = manifest.remotes.find((r) => r.routes.some((route) => route.path === pagePath));
      if (!owner) return `no group owns ${pagePath}`;
      try {
        const reply = await pools.group(owner).render({
          part: 'page',
          manifest: {
            schemaVersion: manifest.schemaVersion,
            generatedAt: manifest.generatedAt,
            remotes: [owner],
          },
          path: pagePath,
        });
        return reply.failure;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
  // Every replica watches the canaries' errors it sees; the first past the threshold rolls back.
  const canaryWatch = new CanaryWatch({
    current: () => store.get(),
    errors: (group, version, windowMs) =>
      metrics.beaconErrors(group, version, windowMs) +
      metrics.renderFailuresIn(group, version, windowMs),
    async rollBack(group, version, reason) {
      const done = await deployer.rollBackCanary(group, version, reason);
      if (done) metrics.deploy('rollback', 'ok');
    },
    errorThreshold: options.canary?.errorThreshold ?? CANARY_DEFAULTS.errorThreshold,
    windowSeconds: options.canary?.windowSeconds ?? CANARY_DEFAULTS.windowSeconds,
    log,
  });
  canaryWatch.start();
  if (deploy) {
    await app.register(deployApi, {
      prefix: '/_deploy',
      token: deploy.token,
      tokens: store.tokens,
      deployer,
      preview: {
        link(remote, seconds) {
          const signed = previewSigner!.sign(
            {
              remote: remote.name,
              version: remote.version,
              entry: remote.entry,
              serverIntegrity: remote.serverIntegrity ?? '',
            },
            seconds ?? DEFAULT_PREVIEW_SECONDS,
          );
          return { url: `${siteUrl}${PREVIEW_PATH}/${signed.token}`, expiresAt: signed.expiresAt };
        },
      },
      current: () => store.get(),
      log,
    });
  } else {
    const off = (_: unknown, reply: FastifyReply) =>
      reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The deploy API is off: it needs DEPLOY_TOKEN.\n');
    app.all('/_deploy', off);
    app.all('/_deploy/*', off);
  }

  // Opening a preview link: its token joins the browser's previews (one per group), and the
  // browser goes to the group's first page. A token that is not valid changes nothing.
  app.get<{ Params: { token: string } }>(`${PREVIEW_PATH}/:token`, async (request, reply) => {
    reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    const { token } = request.params;
    const claims = token === 'end' ? null : (previewSigner?.verify(token) ?? null);
    const kept = (previewSigner?.fromCookie(request.headers.cookie) ?? []).filter(
      (t) => claims && t.claims.remote !== claims.remote,
    );
    const secure = request.protocol === 'https';
    if (!claims) {
      if (token === 'end') reply.header('set-cookie', previewCookie([], secure));
      return reply.code(303).header('location', '/').send();
    }
    const tokens = [...kept, { token, claims }];
    reply.header('set-cookie', previewCookie(tokens, secure));
    let first = '/';
    try {
      const view = await previewManifests.get(
        await liveManifest(),
        tokens.map((t) => t.claims),
      );
      first = view.manifest.remotes.find((r) => r.name === claims.remote)?.routes[0]?.path ?? '/';
    } catch {
      // The page itself says what can be shown.
    }
    return reply.code(303).header('location', encodeUrl(first)).send();
  });

  await app.register(pageRoutes, { publicDir, pages });

  return {
    app,
    async listen(port, host) {
      await pools.shell.warm();
      // The first page composes before the first visitor asks for it.
      await page('/').catch(() => undefined);
      return listenOn(app, port, host);
    },
    page,
    paths,
    manifest: () => store.get(),
    metrics,
    async close() {
      canaryWatch.stop();
      await app.close();
      await pools.close();
      await store.close();
    },
  };
}
