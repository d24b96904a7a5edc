#!/usr/bin/env node
/**
 * The site at http://localhost:3000: the shell's files, the deployment's own files from the deploy
 * folder (the manifest `/remotes.json`, `sitemap.xml`, `robots.txt`, the prerendered pages),
 * `/api/*` forwarded to the mail-service, and the right status for every path: 200 for the pages
 * the site has (the shell's own and those in the remotes' route tables), 404 with the 404 page for
 * anything else. A page's prerendered HTML is served when it exists, else the shell's index.html.
 */
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REVALIDATE, resolveFile, sendBody, sendFile } from './lib/static.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SHELL_PATHS = ['/', '/about', '/contact'];

/** Reads the manifest when it changes on disk, so a manifest refresh needs no restart. */
function manifestReader(file) {
  let cached = { mtimeMs: -1, text: null, paths: new Set() };
  return async () => {
    try {
      const stat = await fs.stat(file);
      if (stat.mtimeMs !== cached.mtimeMs) {
        const text = await fs.readFile(file, 'utf8');
        let paths = new Set();
        try {
          const json = JSON.parse(text);
          paths = new Set(
            (json.remotes ?? []).flatMap((r) => (r.routes ?? []).map((route) => route.path)),
          );
        } catch {
          // An invalid manifest is still served: the shell reports it clearly in the page.
        }
        cached = { mtimeMs: stat.mtimeMs, text, paths };
      }
    } catch {
      cached = { mtimeMs: -1, text: null, paths: new Set() };
    }
    return cached;
  };
}

function proxy(req, res, target) {
  const url = new URL(req.url ?? '/', target);
  const headers = { ...req.headers, host: url.host };
  // The mail-service trusts X-Forwarded-For from this proxy only (its TRUST_PROXY setting).
  const forwarded = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwarded
    ? `${forwarded}, ${req.socket.remoteAddress}`
    : req.socket.remoteAddress;
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

const DEPLOY_FILES = new Set(['/sitemap.xml', '/robots.txt']);

export function createSiteServer({ root, deployDir, apiTarget }) {
  const shellRoot = path.resolve(root);
  const deployRoot = path.resolve(deployDir);
  const readManifest = manifestReader(path.join(deployRoot, 'remotes.json'));

  /**
   * The page's HTML: its prerendered copy when there is one, else the shell's index.html. The
   * prerenderer asks for the shell's own (`X-Prerender: shell`) so it never renders from a stale copy.
   */
  async function pageHtml(urlPath, known, shellOnly) {
    if (shellOnly) return resolveFile(shellRoot, '/index.html');
    const name = known
      ? urlPath === '/'
        ? 'index.html'
        : `${urlPath.slice(1)}/index.html`
      : '404.html';
    const prerendered = await resolveFile(path.join(deployRoot, 'pages'), `/${name}`);
    return prerendered ?? (await resolveFile(shellRoot, '/index.html'));
  }

  return http.createServer(async (req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    if (urlPath === '/api' || urlPath.startsWith('/api/')) return proxy(req, res, apiTarget);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      return res.end();
    }
    if (urlPath === '/remotes.json') {
      const manifest = await readManifest();
      if (manifest.text === null) {
        return sendBody(req, res, {
          status: 404,
          body: '{"error":"no deployment manifest"}',
          type: 'application/json',
        });
      }
      return sendBody(req, res, {
        body: manifest.text,
        type: 'application/json; charset=utf-8',
        cacheControl: REVALIDATE,
      });
    }
    if (DEPLOY_FILES.has(urlPath)) {
      const file = await resolveFile(deployRoot, urlPath);
      if (file) return sendFile(req, res, file, { cacheControl: 'public, max-age=300' });
    }
    const file =
      urlPath !== '/' && urlPath !== '/index.html' ? await resolveFile(shellRoot, urlPath) : null;
    if (file) return sendFile(req, res, file);

    const clean = urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath;
    if (clean !== urlPath) {
      res.writeHead(301, { Location: clean });
      return res.end();
    }
    const { paths } = await readManifest();
    const known = SHELL_PATHS.includes(clean) || paths.has(clean);
    const html = await pageHtml(clean, known, req.headers['x-prerender'] === 'shell');
    if (!html)
      return sendBody(req, res, {
        status: 500,
        body: 'The site is not built.\n',
        type: 'text/plain',
      });
    return sendFile(req, res, html, { status: known ? 200 : 404, cacheControl: REVALIDATE });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 3000);
  const server = createSiteServer({
    root: process.env.SHELL_DIST ?? path.join(here, '..', 'shell', 'dist'),
    deployDir: process.env.DEPLOY_DIR ?? path.join(here, '..', 'deploy'),
    apiTarget: process.env.MAIL_SERVICE_URL ?? 'http://127.0.0.1:3005',
  });
  server.listen(port, () => console.log(`site: http://localhost:${port}/`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
