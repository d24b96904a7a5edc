/**
 * The site server: the shell's deployable. It owns the live deployment manifest (`/remotes.json`),
 * composes every page per request from the shell's layout for that manifest and the owning
 * remote's server render of its current version, serves the shell's files, `sitemap.xml` and
 * `robots.txt` from the live manifest, and forwards `/api/*` to the mail-service.
 */
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { composePage, loadShellTemplate, type ShellTemplate } from './compose';
import { ManifestStore, type LiveManifest } from './manifest-store';
import { createDeployApi } from './deploy/api';
import { History } from './deploy/history';
import { ComposedPage, PageCache } from './page-cache';
import { RenderPool, RenderTimeoutError } from './render-pool';
import type { RenderReply, ShellServerBuild } from './render-types';
import { robotsTxt, sitemapXml } from './seo-files';
import { REVALIDATE, encodingFor, resolveFile, sendBody, sendFile } from './static-files';

export interface SiteOptions {
  /** The shell's build: `shell/dist`. */
  shellDist: string;
  /** Where the live manifest lives: `<deployDir>/remotes.json`. */
  deployDir: string;
  /** The mail-service, for `/api/*`. */
  apiTarget: string;
  /** The site's public origin, for canonical links, Open Graph URLs and the sitemap. */
  siteUrl: string;
  /** Time limit of one page's render, remote code included. */
  renderTimeoutMs?: number;
  /** Time limit of fetching one of a remote's files. */
  fetchTimeoutMs?: number;
  renderWorkers?: number;
  cache?: { maxEntries?: number; maxBytes?: number; failedTtlMs?: number };
  /** The deploy API (`/_deploy/*`); off without a token. */
  deploy?: { token: string; allowedOrigins: readonly string[] };
  log?: (message: string) => void;
}

export interface Site {
  server: http.Server;
  /** The page at a path as the site would answer it now. */
  page(urlPath: string): Promise<ComposedPage>;
  /** The paths the site has: the shell's own and every remote's. */
  paths(): Promise<string[]>;
  manifest(): Promise<LiveManifest>;
  close(): Promise<void>;
}

/** The key under which every unknown path's 404 page is cached: one page, not one per path. */
const NOT_FOUND_KEY = '404';
const NOT_FOUND_PATH = '/404';

export const DEFAULTS = {
  renderTimeoutMs: 3000,
  fetchTimeoutMs: 2500,
  cache: { maxEntries: 2000, maxBytes: 64 * 1024 * 1024, failedTtlMs: 5000 },
};

function proxy(req: http.IncomingMessage, res: http.ServerResponse, target: string): void {
  const url = new URL(req.url ?? '/', target);
  const headers: http.OutgoingHttpHeaders = { ...req.headers, host: url.host };
  // The mail-service trusts X-Forwarded-For from this proxy only (its TRUST_PROXY setting).
  const forwarded = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwarded
    ? `${String(forwarded)}, ${req.socket.remoteAddress ?? ''}`
    : (req.socket.remoteAddress ?? '');
  headers['x-forwarded-proto'] = 'http';
  const upstream = http.request(url, { method: req.method, headers, timeout: 15000 }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  const fail = () => {
    if (res.headersSent) return res.destroy();
    sendBody(req, res, {
      status: 503,
      body: JSON.stringify({
        error: 'service_unavailable',
        message: 'The message service is not reachable right now.',
      }),
      type: 'application/json; charset=utf-8',
      headers: { 'Retry-After': '30' },
    });
  };
  upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
  upstream.on('error', fail);
  req.pipe(upstream);
}

export async function createSite(options: SiteOptions): Promise<Site> {
  const log = options.log ?? ((message: string) => console.error(message));
  const shellDist = path.resolve(options.shellDist);
  const siteUrl = options.siteUrl.replace(/\/+$/, '');
  const renderBundle = path.join(shellDist, 'server', 'render.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shell's Node build is CommonJS
  const shell = require(renderBundle) as ShellServerBuild;
  const store = new ManifestStore(path.join(path.resolve(options.deployDir), 'remotes.json'), log);
  const pool = new RenderPool({
    data: { renderBundle, fetchTimeoutMs: options.fetchTimeoutMs ?? DEFAULTS.fetchTimeoutMs },
    size: options.renderWorkers ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    timeoutMs: options.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs,
  });
  const cache = new PageCache({ ...DEFAULTS.cache, ...options.cache });
  let template: ShellTemplate = await loadShellTemplate(shellDist);

  /** The shell's template, made again when a new shell build is in place. */
  let templateChecked = 0;
  let templateStamp = -1;
  async function currentTemplate(): Promise<ShellTemplate> {
    const now = Date.now();
    if (now - templateChecked < 1000) return template;
    templateChecked = now;
    try {
      const { mtimeMs } = await stat(path.join(shellDist, 'server', 'chunks.json'));
      if (mtimeMs !== templateStamp) {
        template = await loadShellTemplate(shellDist);
        templateStamp = mtimeMs;
      }
    } catch {
      // A shell build in progress: keep the template in use.
    }
    return template;
  }

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

  async function render(
    live: LiveManifest,
    pagePath: string,
    image: string | null,
  ): Promise<RenderReply> {
    const job = { manifest: live.manifest, path: pagePath, siteUrl, shareImage: image };
    try {
      return await pool.render(job);
    } catch (error) {
      if (!(error instanceof RenderTimeoutError)) throw error;
      return pool.render({ ...job, unavailable: error.message });
    }
  }

  async function page(urlPath: string): Promise<ComposedPage> {
    const [live, shellTemplate] = await Promise.all([store.get(), currentTemplate()]);
    const known =
      shell.shellPaths.includes(urlPath) ||
      live.paths.has(urlPath) ||
      live.unavailablePrefixes.some((p) => urlPath.startsWith(`${p}/`));
    const pagePath = known ? urlPath : NOT_FOUND_PATH;
    const key = `${live.version}:${shellTemplate.id}:${known ? urlPath : NOT_FOUND_KEY}`;
    return cache.get(key, async () => {
      const reply = await render(live, pagePath, shareImage(live, shellTemplate, urlPath, known));
      if (reply.failure) {
        const owner = reply.remote ? `${reply.remote.name}@${reply.remote.version}` : 'the shell';
        log(`site: ${urlPath}: ${owner} could not be rendered: ${reply.failure}`);
      }
      const headers: Record<string, string> = reply.status === 503 ? { 'Retry-After': '30' } : {};
      return new ComposedPage(
        reply.status,
        composePage(shellTemplate, reply, live.embedded),
        headers,
      );
    });
  }

  async function paths(): Promise<string[]> {
    const live = await store.get();
    return [...shell.shellPaths, ...live.paths];
  }

  function sendPage(req: http.IncomingMessage, res: http.ServerResponse, composed: ComposedPage) {
    const base = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': REVALIDATE,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ETag: composed.etag,
      ...composed.headers,
    };
    if (composed.status === 200 && req.headers['if-none-match'] === composed.etag) {
      res.writeHead(304, base);
      return res.end();
    }
    const encoding = encodingFor(req);
    const body = encoding ? composed.encode(encoding) : composed.body;
    res.writeHead(composed.status, {
      ...base,
      'Content-Length': body.length,
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    if (urlPath === '/api' || urlPath.startsWith('/api/'))
      return proxy(req, res, options.apiTarget);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      return void res.end();
    }
    if (urlPath === '/remotes.json') {
      const live = await store.get();
      return sendBody(req, res, {
        body: live.text,
        type: 'application/json; charset=utf-8',
        cacheControl: REVALIDATE,
        key: `manifest:${live.version}`,
      });
    }
    if (urlPath === '/sitemap.xml') {
      const live = await store.get();
      return sendBody(req, res, {
        body: sitemapXml(siteUrl, await paths()),
        type: 'application/xml; charset=utf-8',
        cacheControl: 'public, max-age=300',
        key: `sitemap:${live.version}`,
      });
    }
    if (urlPath === '/robots.txt') {
      return sendBody(req, res, {
        body: robotsTxt(siteUrl),
        type: 'text/plain; charset=utf-8',
        cacheControl: 'public, max-age=300',
      });
    }
    // The shell's Node build lives beside its files but is not for the public.
    const file =
      urlPath !== '/' && urlPath !== '/index.html' && !urlPath.startsWith('/server/')
        ? await resolveFile(shellDist, urlPath)
        : null;
    if (file) return sendFile(req, res, file);

    const clean = urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath;
    if (clean !== urlPath) {
      res.writeHead(301, { Location: clean });
      return void res.end();
    }
    sendPage(req, res, await page(clean));
  }

  const deployApi = options.deploy?.token
    ? createDeployApi({
        token: options.deploy.token,
        allowedOrigins: options.deploy.allowedOrigins,
        history: new History(path.join(path.resolve(options.deployDir), 'history.jsonl')),
        current: () => store.get(),
        publish: async (json) => {
          const next = await store.replace(json);
          log(`site: manifest ${next.version} is live`);
          return next;
        },
        providedVersions: shell.providedVersions,
        shellPaths: shell.shellPaths,
        async renderCheck(manifest, pagePath) {
          try {
            const reply = await pool.render({ manifest, path: pagePath, siteUrl });
            return reply.status === 503 ? (reply.failure ?? 'it could not be rendered') : null;
          } catch (error) {
            return error instanceof Error ? error.message : String(error);
          }
        },
      })
    : null;

  const server = http.createServer((req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    const notFound = async (_: http.IncomingMessage, r: http.ServerResponse) => {
      r.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      r.end('The deploy API is off: it needs DEPLOY_TOKEN.\n');
    };
    const handler =
      urlPath === '/_deploy' || urlPath.startsWith('/_deploy/') ? (deployApi ?? notFound) : handle;
    handler(req, res).catch((error: unknown) => {
      log(
        `site: ${req.url ?? ''}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (res.headersSent) return res.destroy();
      sendBody(req, res, {
        status: 500,
        body: 'The site could not answer this request. Please try again in a moment.\n',
        type: 'text/plain; charset=utf-8',
      });
    });
  });

  return {
    server,
    page,
    paths,
    manifest: () => store.get(),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    },
  };
}
