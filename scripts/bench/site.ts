import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHELL_PATHS } from '@site/contracts/site';
import { log, onCleanup } from './util';

/**
 * The site under measurement, started the way `npm start` starts it (scripts/start.ts: the site on
 * 3000, the groups on their ports in the site table, the mail-service on 3005), so the benchmark
 * measures whatever serves the site today without knowing its internals. Beside it, on 3100, a small server of its
 * own answers /__static/<route> with the static copies and passes everything else to the site.
 * Those ports are shared with the browser tests: run the benchmark under
 * `flock /tmp/e2e-ports.lock`.
 */

const rootDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SITE = 'http://localhost:3000';
export const STATIC_ORIGIN = 'http://localhost:3100';
export const STATIC_PREFIX = '/__static';

interface ManifestRemote {
  name: string;
  entry: string;
  version: string;
  prefixes: string[];
  routes: { path: string }[];
}

export interface Site {
  remotes: { name: string; origin: string; prefixes: string[]; paths: string[] }[];
  routes: string[];
  /** The main heading of each route's server-rendered page, as a visitor reads it. */
  headings: Record<string, string | null>;
  problems: string[];
  build: { shellScripts: string[]; remotes: Record<string, string>; pagesWritten: Date };
}

/** The file of a page inside a pages folder: `/` -> index.html, `/a/b` -> a/b/index.html. */
const pageFile = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}/index.html`);

const decodeEntities = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');

/** The text of the page's main heading in rendered HTML. */
function headingOf(html: string): string | null {
  const main = html.match(/<main\b[\s\S]*?<\/main>/)?.[0] ?? html;
  const h1 = main.match(/<h1\b[^>]*>([\s\S]*?)<\/h1>/)?.[1];
  return h1 == null
    ? null
    : decodeEntities(h1.replace(/<[^>]+>/g, ''))
        .replace(/\s+/g, ' ')
        .trim();
}

async function waitFor(url: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up within ${ms / 1000} s`);
}

/** Starts the site with scripts/start.ts and waits until the site and every remote answer. */
async function startSite(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'site-bench-'));
  onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(rootDir, 'scripts', 'start.ts')],
    {
      cwd: rootDir,
      env: { ...process.env, DATA_DIR: dataDir, MAILBOX_DIR: path.join(dataDir, 'mailbox') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (d: Buffer) => (output = (output + String(d)).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`scripts/start.ts stopped (exit ${code}):\n${output.trim()}`)),
    ),
  );
  await Promise.race([waitFor(`${SITE}/remotes.json`, 180_000), exited]);
}

/** The static copies: each page's rendered HTML with every <script> and script preload removed. */
async function startStaticServer(staticDir: string): Promise<void> {
  const server = http.createServer((req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    if (urlPath === STATIC_PREFIX || urlPath.startsWith(`${STATIC_PREFIX}/`)) {
      const route = urlPath.slice(STATIC_PREFIX.length) || '/';
      fs.readFile(path.join(staticDir, pageFile(route))).then(
        (body) => {
          res.writeHead(200, {
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-cache',
          });
          res.end(body);
        },
        () => {
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          res.end('no static copy\n');
        },
      );
      return;
    }
    // Fonts and anything else the copy asks for come from the site itself.
    const upstream = http.request(
      `${SITE}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, host: 'localhost:3000' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(3100, '127.0.0.1', () => resolve());
  });
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
}

/** Starts everything and reads what the site serves: its routes, headings and remotes. */
export async function prepareSite(): Promise<Site> {
  log('starting the site with scripts/start.ts');
  await startSite();
  const manifest = (await (await fetch(`${SITE}/remotes.json`)).json()) as {
    remotes: ManifestRemote[];
  };
  const xml = await fetch(`${SITE}/sitemap.xml`).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );
  const fromSitemap = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => {
    const p = new URL((m[1] ?? '').trim()).pathname;
    return p.length > 1 ? p.replace(/\/+$/, '') : p;
  });
  const routes = fromSitemap.length
    ? fromSitemap
    : [...SHELL_PATHS, ...manifest.remotes.flatMap((r) => r.routes.map((x) => x.path))];

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'site-bench-static-'));
  onCleanup(() => fs.rm(tmp, { recursive: true, force: true }));
  const headings: Record<string, string | null> = {};
  const problems: string[] = [];
  for (const route of routes) {
    const res = await fetch(`${SITE}${route}`);
    const html = await res.text();
    if (!res.ok) problems.push(`${route}: HTTP ${res.status}`);
    headings[route] = headingOf(html);
    const stripped = html
      .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '')
      .replace(/<link\b[^>]*\bas="?script"?[^>]*>/gi, '');
    const out = path.join(tmp, pageFile(route));
    await fs.mkdir(path.dirname(out), { recursive: true });
    await fs.writeFile(out, stripped);
  }
  await startStaticServer(tmp);

  const index = await fs.readFile(
    path.join(rootDir, 'shell', 'dist', 'public', 'index.html'),
    'utf8',
  );
  const pagesIndex = path.join(rootDir, 'deploy', 'remotes.json');
  return {
    remotes: manifest.remotes.map((r) => ({
      name: r.name,
      origin: new URL(r.entry).origin,
      prefixes: r.prefixes,
      paths: r.routes.map((x) => x.path),
    })),
    routes,
    headings,
    problems,
    build: {
      shellScripts: [...index.matchAll(/<script\b[^>]*\bsrc="?([^"\s>]+)/g)].map((m) => m[1] ?? ''),
      remotes: Object.fromEntries(manifest.remotes.map((r) => [r.name, r.version])),
      pagesWritten: existsSync(pagesIndex) ? (await fs.stat(pagesIndex)).mtime : new Date(0),
    },
  };
}

/** The origin of the remote that serves a route, or null for the shell's own pages. */
export function remoteOriginFor(route: string, site: Site): string | null {
  const remote = site.remotes.find((r) =>
    r.prefixes.some((p) => route === p || route.startsWith(`${p}/`)),
  );
  return remote ? remote.origin : null;
}

export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === SITE ? u.pathname : `${u.port ? `:${u.port}` : u.host}${u.pathname}`;
  } catch {
    return url;
  }
}
