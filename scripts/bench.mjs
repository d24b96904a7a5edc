#!/usr/bin/env node
/**
 * The site's performance benchmark: `npm run bench` (see docs/performance.md).
 *
 * It starts its own copy of the site in this process, on ports that never clash with `npm start`:
 * the site on 4000 and the remotes on 4001 to 4004, serving a snapshot of the current build (the
 * shell, the remotes, the prerendered pages) from a temporary folder, with a deployment manifest
 * that points at 4001..4004. Then, per route:
 *
 *   1. first-load bytes (Playwright, Chromium): every script, style sheet and font the page
 *      downloads until the network is idle after `load`, each body gzipped at level 9, summed;
 *      which libraries were downloaded (Leaflet, react-hook-form, zod) and which origins contacted;
 *   2. Lighthouse 12 (mobile, default simulated throttling): the four category scores, LCP and CLS,
 *      median of --runs runs, and the audits that fail;
 *   3. LCP of the page against a static copy of it (the prerendered HTML without any <script>,
 *      served by the same server under /__static/<route>), Lighthouse runs alternated;
 *
 * and once for the site: 4. the first navigation into a page group not loaded yet (footer link on
 * /about into Data Science), with and without hover preload, against a navigation within the shell.
 *
 *   npm run bench                               every route of the sitemap, 3 runs
 *   npm run bench -- --routes /,/about --runs 1
 *   npm run bench -- --skip-lighthouse          bytes, libraries, origins and navigation only
 *
 * Prints a table and a summary, and writes the same data to bench-results/latest.json (and a dated
 * copy beside it). Needs the build (`npm run build`) and a Chromium: CHROME_PATH, else
 * /usr/bin/chromium, else Playwright's own.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createSiteServer } from './serve-site.mjs';
import { createRemoteServer } from './serve-remote.mjs';
import { buildManifest, writeManifest } from './manifest.mjs';
import { REVALIDATE, resolveFile, sendFile } from './lib/static.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.join(here, '..');
const require = createRequire(import.meta.url);
const { REMOTES } = require('../shared/federation.cjs');

const SITE_PORT = 4000;
const PORT_OFFSET = 1000; // remote on 3001 in `npm start` -> 4001 here
const SITE = `http://localhost:${SITE_PORT}`;
const STATIC_PREFIX = '/__static';
const SHELL_PATHS = ['/', '/about', '/contact'];

const BUDGET = {
  firstLoadJsHome: 110 * 1024, // bytes, gzip
  performance: 95,
  otherCategories: 100,
  lcpRatio: 1.2,
  cls: 0.02,
};

/** Distinctive strings of each library, as they survive minification (property names, CSS
 * class names, messages): any one found in a downloaded script body counts as that library. */
const LIBRARY_MARKERS = {
  leaflet: ['leaflet-container', 'leafletjs.com'],
  'react-hook-form': ['shouldUnregister', 'criteriaMode'],
  zod: ['ZodError', '$ZodType'],
};

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The first navigation into a group not loaded yet: from /about, into Data Science. */
const NAV = {
  from: '/about',
  groupLink: 'footer a[href="/services/data-analytics/data-science"]',
  groupPath: '/services/data-analytics/data-science',
  shellLink: 'header nav[aria-label="Main"] a[href="/"]',
  shellPath: '/',
  cpuSlowdown: 4,
  network: { latency: 150, downloadKbps: 1600, uploadKbps: 750 },
  hoverWaitMs: 1000,
};

const TIMEOUT = {
  goto: 30_000,
  networkIdle: 15_000,
  lighthouseRun: 150_000,
  navigation: 30_000,
  browserLaunch: 30_000,
};

// ---------------------------------------------------------------------------------------------
// Small helpers

const t0 = Date.now();
const log = (msg) =>
  process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);

function parseArgs(argv) {
  const args = { routes: null, runs: 3, skipLighthouse: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--routes' || arg.startsWith('--routes=')) {
      args.routes = value()
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean)
        .map((r) => (r.length > 1 ? r.replace(/\/+$/, '') : r));
    } else if (arg === '--runs' || arg.startsWith('--runs=')) {
      args.runs = Number(value());
      if (!Number.isInteger(args.runs) || args.runs < 1 || args.runs > 20)
        throw new Error('--runs must be an integer from 1 to 20');
    } else if (arg === '--skip-lighthouse') args.skipLighthouse = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return args;
}

const median = (values) => {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

const kb = (bytes) => (bytes == null ? '-' : (bytes / 1024).toFixed(1));
const fmt = (v, digits = 0) => (v == null || Number.isNaN(v) ? '-' : v.toFixed(digits));
const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;

/** Rejects after `ms` with a clear message; the work itself is left to its own clean-up. */
function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function chromePath(playwrightChromium) {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p) => p && existsSync(p));
  if (found) return found;
  try {
    const own = playwrightChromium?.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // no browser of Playwright's own either
  }
  return null;
}

/** The file of a page inside a pages folder: `/` -> index.html, `/a/b` -> a/b/index.html. */
const pageFile = (route) => (route === '/' ? 'index.html' : `${route.slice(1)}/index.html`);

const decodeEntities = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');

/** The text of the page's main heading in prerendered HTML. */
function headingOf(html) {
  const main = html.match(/<main\b[\s\S]*?<\/main>/)?.[0] ?? html;
  const h1 = main.match(/<h1\b[^>]*>([\s\S]*?)<\/h1>/)?.[1];
  return h1 == null
    ? null
    : decodeEntities(h1.replace(/<[^>]+>/g, ''))
        .replace(/\s+/g, ' ')
        .trim();
}

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started is registered here and stopped on success, error or signal.

const cleanups = [];
let cleaningUp = null;
function cleanup() {
  cleaningUp ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await withTimeout(Promise.resolve().then(fn), 10_000, 'clean-up step');
      } catch (error) {
        log(`clean-up: ${error.message}`);
      }
    }
  })();
  return cleaningUp;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// The site on 4000..4004, from a snapshot of the build

async function prepareSnapshot() {
  const need = [
    path.join(rootDir, 'shell', 'dist', 'index.html'),
    path.join(rootDir, 'deploy', 'pages', 'index.html'),
    path.join(rootDir, 'deploy', 'sitemap.xml'),
    ...Object.keys(REMOTES).map((folder) => path.join(rootDir, folder, 'dist')),
  ];
  const missing = need.filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(
      `the site is not built (missing ${missing.map((p) => path.relative(rootDir, p)).join(', ')}): run npm run build first`,
    );
  }
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'site-bench-'));
  cleanups.push(() => fs.rm(tmp, { recursive: true, force: true }));
  // A snapshot, so that a rebuild while the benchmark runs cannot pull files from under it.
  const shellDir = path.join(tmp, 'shell');
  const deployDir = path.join(tmp, 'deploy');
  await fs.cp(path.join(rootDir, 'shell', 'dist'), shellDir, { recursive: true });
  await fs.cp(path.join(rootDir, 'deploy', 'pages'), path.join(deployDir, 'pages'), {
    recursive: true,
  });
  for (const file of ['sitemap.xml', 'robots.txt']) {
    if (existsSync(path.join(rootDir, 'deploy', file)))
      await fs.copyFile(path.join(rootDir, 'deploy', file), path.join(deployDir, file));
  }
  const remotes = [];
  const env = { ...process.env };
  const versions = {};
  const dists = {};
  for (const [folder, { name, port }] of Object.entries(REMOTES)) {
    const dist = path.join(tmp, 'remotes', folder);
    await fs.cp(path.join(rootDir, folder, 'dist'), dist, { recursive: true });
    const benchPort = port + PORT_OFFSET;
    env[`REMOTE_${name.toUpperCase()}_URL`] = `http://localhost:${benchPort}`;
    versions[name] = JSON.parse(
      await fs.readFile(path.join(rootDir, folder, 'package.json'), 'utf8'),
    ).version;
    dists[name] = dist;
    remotes.push({ folder, name, port: benchPort, dist, origin: `http://localhost:${benchPort}` });
  }
  const manifest = await buildManifest({ versions, dists, env });
  await writeManifest(path.join(deployDir, 'remotes.json'), manifest);

  // The prerendered pages preload their remote's scripts from the origins of the deployment they
  // were made for; point those at the benchmark's own remote servers.
  const deployed = JSON.parse(
    await fs.readFile(path.join(rootDir, 'deploy', 'remotes.json'), 'utf8').catch(() => '{}'),
  );
  const origins = (deployed.remotes ?? []).flatMap((r) => {
    const bench = manifest.remotes.find((m) => m.name === r.name);
    return bench ? [[new URL(r.entry).origin, new URL(bench.entry).origin]] : [];
  });

  // The static copies: the prerendered HTML with every <script> and script preload removed, the
  // same CSS and fonts.
  const staticDir = path.join(tmp, 'static');
  const pages = path.join(deployDir, 'pages');
  const routes = await siteRoutes(deployDir, manifest);
  const headings = {};
  const problems = [];
  for (const route of routes) {
    let html = await fs.readFile(path.join(pages, pageFile(route)), 'utf8').catch(() => null);
    if (html == null) {
      problems.push(`${route}: no prerendered page`);
      continue;
    }
    for (const [from, to] of origins) html = html.split(`${from}/`).join(`${to}/`);
    await fs.writeFile(path.join(pages, pageFile(route)), html);
    headings[route] = headingOf(html);
    for (const [, ref] of html.matchAll(/(?:src|href)="?(\/assets\/[^"\s>]+)/g)) {
      if (!existsSync(path.join(shellDir, ref)))
        problems.push(`${route}: prerendered page refers to ${ref}, which the shell build lacks`);
    }
    const stripped = html
      .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '')
      .replace(/<link\b[^>]*\bas="?script"?[^>]*>/gi, '');
    const out = path.join(staticDir, pageFile(route));
    await fs.mkdir(path.dirname(out), { recursive: true });
    await fs.writeFile(out, stripped);
  }
  const index = await fs.readFile(path.join(shellDir, 'index.html'), 'utf8');
  const build = {
    shellScripts: [...index.matchAll(/<script\b[^>]*\bsrc="?([^"\s>]+)/g)].map((m) => m[1]),
    remotes: Object.fromEntries(manifest.remotes.map((r) => [r.name, r.version])),
    pagesWritten: (await fs.stat(path.join(rootDir, 'deploy', 'pages', 'index.html'))).mtime,
  };
  return {
    tmp,
    shellDir,
    deployDir,
    staticDir,
    remotes,
    manifest,
    routes,
    headings,
    problems,
    build,
  };
}

/** The content routes: the sitemap's, else the shell's own and the manifest's. */
async function siteRoutes(deployDir, manifest) {
  const fromManifest = [
    ...SHELL_PATHS,
    ...manifest.remotes.flatMap((r) => r.routes.map((route) => route.path)),
  ];
  const xml = await fs.readFile(path.join(deployDir, 'sitemap.xml'), 'utf8').catch(() => '');
  const fromSitemap = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => {
    const p = new URL(m[1].trim()).pathname;
    return p.length > 1 ? p.replace(/\/+$/, '') : p;
  });
  return fromSitemap.length ? fromSitemap : fromManifest;
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} is in use: is another benchmark running?`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

async function startServers(snapshot) {
  const site = createSiteServer({
    root: snapshot.shellDir,
    deployDir: snapshot.deployDir,
    apiTarget: 'http://127.0.0.1:9',
  });
  const siteHandler = site.listeners('request')[0];
  // The same site server, plus the static copies under /__static/<route>.
  const wrapper = http.createServer(async (req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    if (urlPath === STATIC_PREFIX || urlPath.startsWith(`${STATIC_PREFIX}/`)) {
      const route = urlPath.slice(STATIC_PREFIX.length) || '/';
      const file = await resolveFile(snapshot.staticDir, `/${pageFile(route)}`);
      if (file) return sendFile(req, res, file, { cacheControl: REVALIDATE });
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('no static copy\n');
    }
    return siteHandler(req, res);
  });
  const servers = [];
  cleanups.push(() => Promise.all(servers.map(stopServer)));
  servers.push(await listen(wrapper, SITE_PORT));
  for (const remote of snapshot.remotes) {
    servers.push(await listen(createRemoteServer(remote.dist), remote.port));
  }
  const check = await fetch(`${SITE}/remotes.json`, { signal: AbortSignal.timeout(5000) });
  if (!check.ok) throw new Error(`the bench site does not answer (${check.status})`);
}

/** The origin of the remote that serves a route, or null for the shell's own pages. */
function remoteOriginFor(route, snapshot) {
  const remote = snapshot.manifest.remotes.find((r) =>
    r.prefixes.some((p) => route === p || route.startsWith(`${p}/`)),
  );
  return remote ? new URL(remote.entry).origin : null;
}

// ---------------------------------------------------------------------------------------------
// 1. First-load bytes, libraries and origins (Playwright)

async function launchBrowser(chromium, executablePath) {
  const browser = await chromium.launch({
    executablePath,
    timeout: TIMEOUT.browserLaunch,
    args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')),
  });
  const close = () => browser.close().catch(() => {});
  cleanups.push(close);
  return { browser, close };
}

const isLocal = (url) => {
  try {
    const u = new URL(url);
    return ['localhost', '127.0.0.1'].includes(u.hostname) || !/^https?:$/.test(u.protocol);
  } catch {
    return true;
  }
};

async function measureFirstLoad(browser, route, snapshot) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 720 },
    serviceWorkers: 'block',
  });
  context.setDefaultTimeout(TIMEOUT.goto);
  try {
    const page = await context.newPage();
    const files = [];
    const pending = [];
    const origins = new Set();
    const failures = [];
    const blocked = new Set();
    // The machine is offline; outside hosts (map tiles) are recorded and answered at once.
    await context.route(
      (url) => !isLocal(url.href),
      (r) => {
        blocked.add(new URL(r.request().url()).origin);
        return r.abort('internetdisconnected');
      },
    );
    page.on('request', (req) => {
      try {
        const u = new URL(req.url());
        if (/^https?:$/.test(u.protocol)) origins.add(u.origin);
      } catch {
        // data: and the like
      }
    });
    page.on('requestfailed', (req) => {
      if (isLocal(req.url())) failures.push(`${req.url()} (${req.failure()?.errorText})`);
    });
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (response.status() >= 400) failures.push(`${response.url()} (${response.status()})`);
      if (!['document', 'script', 'stylesheet', 'font'].includes(type)) return;
      pending.push(
        response
          .body()
          .then((body) =>
            files.push({
              url: response.url(),
              type,
              status: response.status(),
              rawBytes: body.length,
              gzipBytes: gzipSize(body),
              text: type === 'script' ? body.toString('utf8') : null,
            }),
          )
          .catch((error) => failures.push(`${response.url()} (body: ${error.message})`)),
      );
    });
    await page.goto(`${SITE}${route}`, { waitUntil: 'load', timeout: TIMEOUT.goto });
    let networkIdle = true;
    await page
      .waitForLoadState('networkidle', { timeout: TIMEOUT.networkIdle })
      .catch(() => (networkIdle = false));
    await withTimeout(Promise.allSettled(pending), 10_000, `${route}: response bodies`);
    const features = await page.evaluate(() => ({
      appReady: document.documentElement.dataset.appReady === 'true',
      form: Boolean(document.querySelector('main form')),
      map: Boolean(document.querySelector('main .map, main .map-frame, main .leaflet-container')),
      h1: document.querySelector('main h1')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
    }));

    const sum = (type) => files.filter((f) => f.type === type).reduce((n, f) => n + f.gzipBytes, 0);
    const libraries = {};
    for (const [lib, markers] of Object.entries(LIBRARY_MARKERS)) {
      const hits = [];
      for (const f of files.filter((x) => x.type === 'script')) {
        for (const m of markers) if (f.text.includes(m)) hits.push(`${m} in ${shortUrl(f.url)}`);
      }
      libraries[lib] = hits;
    }
    const ownRemote = remoteOriginFor(route, snapshot);
    const remoteOrigins = new Set(snapshot.remotes.map((r) => r.origin));
    const contactedRemotes = [...origins].filter((o) => remoteOrigins.has(o));
    const otherOrigins = [...origins].filter((o) => o !== SITE && !remoteOrigins.has(o));
    const heavyLibs = Object.entries(libraries)
      .filter(([, hits]) => hits.length)
      .map(([lib]) => lib);
    const expectsHeavy = features.form || features.map;
    return {
      route,
      html: sum('document'),
      js: sum('script'),
      css: sum('stylesheet'),
      fonts: sum('font'),
      files: files
        .map(({ url, type, rawBytes, gzipBytes }) => ({
          url: shortUrl(url),
          type,
          rawBytes,
          gzipBytes,
        }))
        .sort((a, b) => b.gzipBytes - a.gzipBytes),
      scripts: files.filter((f) => f.type === 'script').length,
      networkIdle,
      appReady: features.appReady,
      hasForm: features.form,
      hasMap: features.map,
      heading: features.h1,
      libraries,
      librariesOk: expectsHeavy || heavyLibs.length === 0,
      ownRemote,
      contactedRemotes,
      originsOk: contactedRemotes.every((o) => o === ownRemote),
      otherOrigins,
      blockedOrigins: [...blocked],
      failures,
    };
  } finally {
    await context.close().catch(() => {});
  }
}

function shortUrl(url) {
  try {
    const u = new URL(url);
    return u.origin === SITE ? u.pathname : `${u.port ? `:${u.port}` : u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------
// 2 and 3. Lighthouse, on the page and on its static copy

const LH_CLI = require.resolve('lighthouse/cli/index.js');
let activeChild = null;
cleanups.push(() => {
  if (activeChild) killGroup(activeChild);
});

/**
 * Stops a Lighthouse run: its process group and the Chromium it launched (chrome-launcher starts
 * Chromium detached, in a group of its own, as a child of the Lighthouse process), then removes
 * that Chromium's temporary profile. Only these processes: found by parent id under /proc.
 */
function killGroup(child) {
  const groups = new Set([child.pid]);
  const profiles = [];
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(ppid) !== child.pid) continue;
        groups.add(Number(pgrp));
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        const dir = cmdline.find((a) => a.startsWith('--user-data-dir='))?.slice(16);
        if (dir && path.basename(dir).startsWith('lighthouse.')) profiles.push(dir);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    // no /proc: the Lighthouse group alone
  }
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  try {
    child.kill('SIGKILL');
  } catch {
    // already gone
  }
  for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
}

/** One Lighthouse run in its own process group (its Chromium included), killed on time-out. */
function lighthouse(url, { categories, executablePath }) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        LH_CLI,
        url,
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
        `--only-categories=${categories.join(',')}`,
        '--disable-full-page-screenshot',
        '--max-wait-for-load=45000',
      ],
      {
        env: { ...process.env, CHROME_PATH: executablePath },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    activeChild = child;
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-2000);
    });
    const timer = setTimeout(() => {
      killGroup(child);
      finish({ error: `time-out after ${TIMEOUT.lighthouseRun / 1000} s` });
    }, TIMEOUT.lighthouseRun);
    let done = false;
    function finish(result) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (activeChild === child) activeChild = null;
      resolve(result);
    }
    child.on('error', (error) => finish({ error: error.message }));
    child.on('close', (code) => {
      if (code !== 0) return finish({ error: `exit ${code}: ${err.trim().split('\n').pop()}` });
      try {
        finish({ lhr: JSON.parse(Buffer.concat(out).toString('utf8')) });
      } catch (error) {
        finish({ error: `unreadable report: ${error.message}` });
      }
    });
  });
}

/** What one report says: scores, LCP, CLS, failing audits. */
function digest(lhr) {
  const score = (id) =>
    lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100);
  const failing = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score == null) continue;
      if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)) continue;
      // Accessibility, best practices, SEO: anything short of a pass. Performance: the weighted
      // metrics below "good" (0.9) and the audits Lighthouse marks as failed (score 0).
      const fails =
        id === 'performance'
          ? ref.weight > 0
            ? audit.score < 0.9
            : audit.score === 0
          : audit.score < 1;
      if (fails) failing.push(`${id === 'performance' ? 'perf' : id}:${ref.id}`);
    }
  }
  const lcpElement =
    lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node
      ?.selector ?? null;
  // Where the LCP time goes (TTFB, load delay, load time, render delay) and what shifted.
  const lcpPhases = Object.fromEntries(
    (lhr.audits['largest-contentful-paint-element']?.details?.items?.[1]?.items ?? []).map((p) => [
      p.phase,
      Math.round(p.timing),
    ]),
  );
  const layoutShifts = (lhr.audits['layout-shifts']?.details?.items ?? [])
    .slice(0, 3)
    .map((item) => ({ node: item.node?.selector ?? null, score: item.score }));
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? null,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
    lcpElement,
    lcpPhases,
    layoutShifts,
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? null,
    failing: [...new Set(failing)],
    warnings: lhr.runWarnings ?? [],
    userAgent: lhr.environment?.hostUserAgent ?? null,
  };
}

async function runLighthouse(routes, runs, executablePath) {
  const perRoute = Object.fromEntries(routes.map((r) => [r, { page: [], static: [], errors: [] }]));
  const total = routes.length * runs * 2;
  let n = 0;
  for (let run = 0; run < runs; run++) {
    for (const route of routes) {
      // Page and static copy side by side, the order alternating from run to run.
      const order = run % 2 === 0 ? ['page', 'static'] : ['static', 'page'];
      for (const kind of order) {
        n += 1;
        const url =
          kind === 'page'
            ? `${SITE}${route}`
            : `${SITE}${STATIC_PREFIX}${route === '/' ? '' : route}`;
        const categories =
          kind === 'page'
            ? ['performance', 'accessibility', 'best-practices', 'seo']
            : ['performance'];
        const started = Date.now();
        const { lhr, error } = await lighthouse(url, { categories, executablePath });
        if (error || lhr.runtimeError) {
          const message = error ?? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
          perRoute[route].errors.push(`${kind} run ${run + 1}: ${message}`);
          log(`lighthouse ${n}/${total} ${kind} ${route}: FAILED ${message}`);
          continue;
        }
        if (process.env.BENCH_REPORTS_DIR) {
          const slug = route === '/' ? 'home' : route.slice(1).replace(/[^\w-]+/g, '_');
          await fs.mkdir(process.env.BENCH_REPORTS_DIR, { recursive: true });
          await fs.writeFile(
            path.join(process.env.BENCH_REPORTS_DIR, `${slug}.${kind}.run${run + 1}.json`),
            JSON.stringify(lhr),
          );
        }
        const d = digest(lhr);
        perRoute[route][kind].push(d);
        log(
          `lighthouse ${n}/${total} ${kind.padEnd(6)} ${route}: ` +
            (kind === 'page'
              ? `perf ${d.performance} a11y ${d.accessibility} bp ${d.bestPractices} seo ${d.seo} `
              : `perf ${d.performance} `) +
            `LCP ${fmt(d.lcp)} ms CLS ${fmt(d.cls, 3)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    }
  }
  const results = {};
  for (const [route, { page, static: stat, errors }] of Object.entries(perRoute)) {
    const m = (key, list = page) => median(list.map((d) => d[key]));
    const failing = {};
    for (const d of page) for (const id of d.failing) failing[id] = (failing[id] ?? 0) + 1;
    const lcp = m('lcp');
    const staticLcp = m('lcp', stat);
    results[route] = {
      runs: page.length,
      staticRuns: stat.length,
      performance: m('performance'),
      accessibility: m('accessibility'),
      bestPractices: m('bestPractices'),
      seo: m('seo'),
      lcp,
      cls: m('cls'),
      staticLcp,
      lcpRatio: lcp != null && staticLcp ? lcp / staticLcp : null,
      tbt: m('tbt'),
      lcpElement: page[0]?.lcpElement ?? null,
      lcpPhases: page[0]?.lcpPhases ?? null,
      staticLcpElement: stat[0]?.lcpElement ?? null,
      staticLcpPhases: stat[0]?.lcpPhases ?? null,
      layoutShifts: page[0]?.layoutShifts ?? [],
      staticLayoutShifts: stat[0]?.layoutShifts ?? [],
      failingAudits: failing,
      perRun: page.map(({ performance, accessibility, bestPractices, seo, lcp: l, cls, tbt }) => ({
        performance,
        accessibility,
        bestPractices,
        seo,
        lcp: l,
        cls,
        tbt,
      })),
      staticPerRun: stat.map(({ performance, lcp: l, cls }) => ({ performance, lcp: l, cls })),
      warnings: [...new Set(page.flatMap((d) => d.warnings))],
      errors,
    };
  }
  const userAgent = Object.values(perRoute).flatMap((r) => r.page)[0]?.userAgent ?? null;
  return { results, userAgent };
}

// ---------------------------------------------------------------------------------------------
// 4. First navigation into a group not loaded yet (Playwright, throttled)

async function navigationOnce(browser, snapshot, scenario) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 720 },
    serviceWorkers: 'block',
  });
  context.setDefaultTimeout(TIMEOUT.navigation);
  try {
    const page = await context.newPage();
    const groupOrigin = remoteOriginFor(NAV.groupPath, snapshot);
    let groupRequestsBeforeClick = 0;
    let clicked = false;
    page.on('request', (req) => {
      if (!clicked && groupOrigin && req.url().startsWith(groupOrigin))
        groupRequestsBeforeClick += 1;
    });
    await page.goto(`${SITE}${NAV.from}`, { waitUntil: 'load', timeout: TIMEOUT.goto });
    await page.waitForSelector('html[data-app-ready="true"] main h1', { timeout: TIMEOUT.goto });
    await page.waitForLoadState('networkidle', { timeout: TIMEOUT.networkIdle }).catch(() => {});
    // Record any hover or focus on a link: the no-hover case must have none.
    await page.evaluate(() => {
      const seen = [];
      window.__benchIntent = seen;
      for (const type of ['pointerover', 'pointerenter', 'mouseover', 'focusin', 'touchstart']) {
        document.addEventListener(
          type,
          (e) => {
            const a = e.target?.closest?.('a[href]');
            if (a) seen.push(`${type} ${a.getAttribute('href')}`);
          },
          true,
        );
      }
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: NAV.network.latency,
      downloadThroughput: (NAV.network.downloadKbps * 1000) / 8,
      uploadThroughput: (NAV.network.uploadKbps * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: NAV.cpuSlowdown });

    const selector = scenario === 'shell' ? NAV.shellLink : NAV.groupLink;
    const target = scenario === 'shell' ? NAV.shellPath : NAV.groupPath;
    const expected = snapshot.headings[target];
    if (!expected) throw new Error(`no heading known for ${target}`);
    if (scenario === 'hover') {
      await page.locator(selector).hover({ timeout: TIMEOUT.navigation });
      await page.waitForTimeout(NAV.hoverWaitMs);
    }
    const preloadedRequests = groupRequestsBeforeClick;
    clicked = true;
    const {
      ms,
      intent,
      path: landed,
    } = await page.evaluate(
      ({ selector, expected, timeout }) =>
        new Promise((resolve, reject) => {
          const link = document.querySelector(selector);
          if (!link) return reject(new Error(`no link ${selector}`));
          const norm = (s) => (s ?? '').replace(/\s+/g, ' ').trim();
          const shown = () => norm(document.querySelector('main h1')?.textContent) === expected;
          let start = 0;
          let finished = false;
          const observer = new MutationObserver(() => {
            if (finished || !shown()) return;
            finished = true;
            observer.disconnect();
            clearTimeout(timer);
            // The frame that paints the new heading.
            requestAnimationFrame(() =>
              resolve({
                ms: performance.now() - start,
                intent: window.__benchIntent.slice(),
                path: location.pathname,
              }),
            );
          });
          const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`the heading "${expected}" did not show within ${timeout} ms`));
          }, timeout);
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          start = performance.now();
          link.click(); // a click event only: no pointer movement, no focus
        }),
      { selector, expected, timeout: TIMEOUT.navigation },
    );
    return { ms, intent, landed, groupRequestsBeforeClick: preloadedRequests };
  } finally {
    await context.close().catch(() => {});
  }
}

async function measureNavigation(browser, snapshot, runs) {
  const scenarios = { noHover: 'no-hover', hover: 'hover', shell: 'shell' };
  const samples = { noHover: [], hover: [], shell: [] };
  const notes = [];
  for (let run = 0; run < runs; run++) {
    for (const [key, scenario] of Object.entries(scenarios)) {
      try {
        const r = await withTimeout(
          navigationOnce(browser, snapshot, scenario),
          TIMEOUT.goto + TIMEOUT.navigation * 2 + 20_000,
          `navigation ${scenario}`,
        );
        samples[key].push(r.ms);
        if (key === 'noHover' && r.intent.length)
          notes.push(
            `no-hover run ${run + 1}: hover/focus events happened (${r.intent.join(', ')})`,
          );
        if (key === 'noHover' && r.groupRequestsBeforeClick)
          notes.push(
            `no-hover run ${run + 1}: the group's remote was requested ${r.groupRequestsBeforeClick} times before the click`,
          );
        if (key === 'hover' && !r.groupRequestsBeforeClick)
          notes.push(`hover run ${run + 1}: hovering requested nothing from the group's remote`);
        log(`navigation ${scenario} run ${run + 1}: ${r.ms.toFixed(0)} ms`);
      } catch (error) {
        notes.push(`${scenario} run ${run + 1}: ${error.message}`);
        log(`navigation ${scenario} run ${run + 1}: FAILED ${error.message}`);
      }
    }
  }
  const noHover = median(samples.noHover);
  const hover = median(samples.hover);
  const shell = median(samples.shell);
  return {
    from: NAV.from,
    into: NAV.groupPath,
    shellBaseline: `${NAV.from} -> ${NAV.shellPath}`,
    throttling: {
      cpuSlowdown: NAV.cpuSlowdown,
      latencyMs: NAV.network.latency,
      downloadKbps: NAV.network.downloadKbps,
      uploadKbps: NAV.network.uploadKbps,
    },
    noHoverMs: noHover,
    hoverMs: hover,
    shellMs: shell,
    ratioNoHover: noHover != null && shell ? noHover / shell : null,
    ratioHover: hover != null && shell ? hover / shell : null,
    samples,
    notes,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

function table(headers, rows, alignLeft = [0]) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) =>
        alignLeft.includes(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]),
      )
      .join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function report(data) {
  const { routes, navigation, options } = data;
  const out = [];
  const rows = routes.map((r) => {
    const lh = r.lighthouse;
    return [
      r.route,
      kb(r.firstLoad?.html),
      kb(r.firstLoad?.js),
      kb(r.firstLoad?.css),
      kb(r.firstLoad?.fonts),
      lh ? fmt(lh.performance) : '-',
      lh ? fmt(lh.accessibility) : '-',
      lh ? fmt(lh.bestPractices) : '-',
      lh ? fmt(lh.seo) : '-',
      lh ? fmt(lh.lcp) : '-',
      lh ? fmt(lh.cls, 3) : '-',
      lh ? fmt(lh.staticLcp) : '-',
      lh ? fmt(lh.lcpRatio, 2) : '-',
      r.firstLoad ? (r.firstLoad.librariesOk ? 'ok' : 'LOADED') : '-',
      r.firstLoad ? (r.firstLoad.originsOk ? 'ok' : 'EXTRA') : '-',
    ];
  });
  out.push(
    `Per route (HTML/JS/CSS/fonts: KB gzip; the HTML carries the site's CSS inline, 1 KB = 1024 bytes; Lighthouse: median of ${options.runs} run(s), mobile)`,
  );
  out.push(
    table(
      [
        'route',
        'HTML',
        'JS',
        'CSS',
        'fonts',
        'perf',
        'a11y',
        'bp',
        'seo',
        'LCP ms',
        'CLS',
        'static LCP',
        'ratio',
        'libs',
        'origins',
      ],
      rows,
    ),
  );

  const home = routes.find((r) => r.route === '/');
  if (home?.firstLoad) {
    out.push('', 'First-load JS on / by file (the biggest five, KB gzip):');
    for (const f of home.firstLoad.files.filter((x) => x.type === 'script').slice(0, 5))
      out.push(`  ${kb(f.gzipBytes).padStart(6)}  ${f.url}`);
  }

  const withLibs = routes.filter(
    (r) => r.firstLoad && Object.values(r.firstLoad.libraries).some((h) => h.length),
  );
  out.push(
    '',
    `Library check (markers: ${Object.entries(LIBRARY_MARKERS)
      .map(([l, m]) => `${l}: ${m.map((x) => `"${x}"`).join(' or ')}`)
      .join('; ')}):`,
  );
  for (const r of routes.filter((x) => x.firstLoad)) {
    const loaded = Object.entries(r.firstLoad.libraries)
      .filter(([, h]) => h.length)
      .map(([l]) => l);
    if (!loaded.length) continue;
    out.push(
      `  ${r.route}: ${loaded.join(', ')} downloaded${r.firstLoad.hasForm || r.firstLoad.hasMap ? ` (the page has a ${[r.firstLoad.hasForm && 'form', r.firstLoad.hasMap && 'map'].filter(Boolean).join(' and ')})` : ' WITHOUT a form or map'}`,
    );
  }
  const clean = routes.filter((r) => r.firstLoad && !withLibs.includes(r)).length;
  out.push(`  ${clean} route(s) downloaded none of them.`);
  const badOrigins = routes.filter((r) => r.firstLoad && !r.firstLoad.originsOk);
  out.push(
    badOrigins.length
      ? `Origins: ${badOrigins.map((r) => `${r.route} contacted ${r.firstLoad.contactedRemotes.join(', ')} (own: ${r.firstLoad.ownRemote ?? 'none'})`).join('; ')}`
      : 'Origins: every route contacted at most its own remote origin.',
  );
  const outside = [...new Set(routes.flatMap((r) => r.firstLoad?.otherOrigins ?? []))];
  if (outside.length)
    out.push(
      `  outside origins requested (blocked: the machine is offline): ${outside.join(', ')}`,
    );
  const failures = routes.filter((r) => r.firstLoad?.failures.length);
  for (const r of failures)
    out.push(`  ${r.route}: failed requests: ${r.firstLoad.failures.join(', ')}`);

  if (navigation) {
    out.push(
      '',
      `First navigation into a group not loaded yet (${navigation.from} -> ${navigation.into}, CPU ${navigation.throttling.cpuSlowdown}x, ${navigation.throttling.latencyMs} ms RTT, ${navigation.throttling.downloadKbps / 1000} Mbps; median of ${options.runs}):`,
      `  without hover preload  ${fmt(navigation.noHoverMs).padStart(6)} ms   ${fmt(navigation.ratioNoHover, 2)}x the shell baseline`,
      `  after hover + 1 s      ${fmt(navigation.hoverMs).padStart(6)} ms   ${fmt(navigation.ratioHover, 2)}x the shell baseline`,
      `  within the shell       ${fmt(navigation.shellMs).padStart(6)} ms   (${navigation.shellBaseline})`,
    );
    for (const n of navigation.notes) out.push(`  note: ${n}`);
  }

  const s = data.summary;
  out.push('', 'Summary');
  out.push(
    `  routes measured: ${routes.length}; first-load JS median ${kb(s.jsMedian)} KB, max ${kb(s.jsMax?.bytes)} KB (${s.jsMax?.route ?? '-'}); HTML median ${kb(s.htmlMedian)} KB; CSS median ${kb(s.cssMedian)} KB; fonts median ${kb(s.fontsMedian)} KB`,
  );
  if (s.lighthouse) {
    out.push(
      `  Lighthouse: ${s.lighthouse.meeting}/${s.lighthouse.measured} routes meet performance >= ${BUDGET.performance} and a11y/best practices/SEO = 100 (${s.lighthouse.runsDone} runs, ${s.lighthouse.runsFailed} failed)`,
    );
    out.push(
      `  worst routes: ${s.lighthouse.worst.map((w) => `${w.route} (perf ${fmt(w.performance)}, a11y ${fmt(w.accessibility)}, bp ${fmt(w.bestPractices)}, seo ${fmt(w.seo)})`).join('; ') || '-'}`,
    );
    out.push(
      `  LCP ratio page/static: worst ${fmt(s.lighthouse.worstLcpRatio?.ratio, 2)} on ${s.lighthouse.worstLcpRatio?.route ?? '-'} (budget ${BUDGET.lcpRatio}); ${s.lighthouse.lcpRatioOver} route(s) over`,
    );
    const w = routes.find((r) => r.route === s.lighthouse.worstLcpRatio?.route)?.lighthouse;
    if (w) {
      out.push(
        `    there the LCP element is ${w.lcpElement ?? '-'} (render delay ${fmt(w.lcpPhases?.['Render Delay'])} ms); on the static copy ${w.staticLcpElement ?? '-'} (render delay ${fmt(w.staticLcpPhases?.['Render Delay'])} ms)`,
      );
    }
    out.push(
      `  CLS: worst ${fmt(s.lighthouse.worstCls?.cls, 3)} on ${s.lighthouse.worstCls?.route ?? '-'} (budget < ${BUDGET.cls})`,
    );
    const failing = routes.filter(
      (r) => r.lighthouse && Object.keys(r.lighthouse.failingAudits).length,
    );
    if (failing.length) {
      out.push('  failing Lighthouse audits (id: runs failing / runs):');
      for (const r of failing)
        out.push(
          `    ${r.route}: ${Object.entries(r.lighthouse.failingAudits)
            .map(([id, n]) => `${id} ${n}/${r.lighthouse.runs}`)
            .join(', ')}`,
        );
    }
    for (const r of routes.filter((x) => x.lighthouse?.errors.length))
      out.push(`  Lighthouse errors on ${r.route}: ${r.lighthouse.errors.join('; ')}`);
  }
  out.push(
    `  libraries: ${s.librariesOk ? 'no Leaflet, react-hook-form or zod on pages without a form or map' : 'heavy libraries on pages without a form or map: ' + s.librariesBad.join(', ')}`,
  );
  out.push(
    `  origins: ${s.originsOk ? "only the page's own remote origin contacted" : 'extra remote origins on ' + s.originsBad.join(', ')}`,
  );
  if (s.homeJs != null) {
    out.push(
      `  first-load JS on /: ${kb(s.homeJs)} KB gzip (${s.homeJs.toLocaleString('en')} bytes; budget 110 KB = ${BUDGET.firstLoadJsHome.toLocaleString('en')} bytes): ${s.homeJs <= BUDGET.firstLoadJsHome ? 'within' : 'OVER'}`,
    );
  } else {
    out.push('  first-load JS on /: not measured (/ not among the routes) (budget 110 KB)');
  }
  for (const p of data.problems) out.push(`  problem: ${p}`);
  return out.join('\n');
}

function summarize(routes, lighthouseRan) {
  const fl = routes.filter((r) => r.firstLoad);
  const jsMax = fl.reduce(
    (m, r) => (!m || r.firstLoad.js > m.bytes ? { route: r.route, bytes: r.firstLoad.js } : m),
    null,
  );
  const summary = {
    routes: routes.length,
    jsMedian: median(fl.map((r) => r.firstLoad.js)),
    htmlMedian: median(fl.map((r) => r.firstLoad.html)),
    cssMedian: median(fl.map((r) => r.firstLoad.css)),
    fontsMedian: median(fl.map((r) => r.firstLoad.fonts)),
    jsMax,
    homeJs: routes.find((r) => r.route === '/')?.firstLoad?.js ?? null,
    homeJsBudget: BUDGET.firstLoadJsHome,
    librariesOk: fl.every((r) => r.firstLoad.librariesOk),
    librariesBad: fl.filter((r) => !r.firstLoad.librariesOk).map((r) => r.route),
    originsOk: fl.every((r) => r.firstLoad.originsOk),
    originsBad: fl.filter((r) => !r.firstLoad.originsOk).map((r) => r.route),
  };
  if (lighthouseRan) {
    const lh = routes.filter((r) => r.lighthouse && r.lighthouse.runs);
    const meets = (l) =>
      l.performance >= BUDGET.performance &&
      l.accessibility === 100 &&
      l.bestPractices === 100 &&
      l.seo === 100;
    const total = (l) =>
      (l.performance ?? 0) + (l.accessibility ?? 0) + (l.bestPractices ?? 0) + (l.seo ?? 0);
    const worst = lh
      .filter((r) => !meets(r.lighthouse))
      .sort((a, b) => total(a.lighthouse) - total(b.lighthouse))
      .slice(0, 5)
      .map((r) => ({
        route: r.route,
        ...pick(r.lighthouse, ['performance', 'accessibility', 'bestPractices', 'seo']),
      }));
    const ratios = lh.filter((r) => r.lighthouse.lcpRatio != null);
    const worstRatio = ratios.reduce(
      (m, r) =>
        !m || r.lighthouse.lcpRatio > m.ratio
          ? { route: r.route, ratio: r.lighthouse.lcpRatio }
          : m,
      null,
    );
    const worstCls = lh.reduce(
      (m, r) =>
        r.lighthouse.cls != null && (!m || r.lighthouse.cls > m.cls)
          ? { route: r.route, cls: r.lighthouse.cls }
          : m,
      null,
    );
    summary.lighthouse = {
      measured: lh.length,
      meeting: lh.filter((r) => meets(r.lighthouse)).length,
      runsDone: routes.reduce(
        (n, r) => n + (r.lighthouse?.runs ?? 0) + (r.lighthouse?.staticRuns ?? 0),
        0,
      ),
      runsFailed: routes.reduce((n, r) => n + (r.lighthouse?.errors.length ?? 0), 0),
      worst,
      worstLcpRatio: worstRatio,
      lcpRatioOver: ratios.filter((r) => r.lighthouse.lcpRatio > BUDGET.lcpRatio).length,
      worstCls,
      clsOver: lh.filter((r) => r.lighthouse.cls >= BUDGET.cls).length,
    };
  }
  return summary;
}

const pick = (o, keys) => Object.fromEntries(keys.map((k) => [k, o[k]]));

// ---------------------------------------------------------------------------------------------

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log('usage: npm run bench -- [--routes /,/about] [--runs N] [--skip-lighthouse]');
    return;
  }
  let chromium;
  try {
    ({ chromium } = await import('@playwright/test'));
  } catch {
    throw new Error('@playwright/test is not installed: run npm install');
  }
  const executablePath = chromePath(chromium);
  if (!executablePath) throw new Error('no Chromium found: set CHROME_PATH');

  log('preparing a snapshot of the build');
  const snapshot = await prepareSnapshot();
  const routes = args.routes ?? snapshot.routes;
  const unknown = routes.filter((r) => !snapshot.routes.includes(r));
  if (unknown.length) throw new Error(`not a route of the site: ${unknown.join(', ')}`);
  // An upper bound for the whole run, whatever hangs.
  const limitMs =
    10 * 60_000 +
    routes.length * 60_000 +
    (args.skipLighthouse ? 0 : routes.length * args.runs * 2 * TIMEOUT.lighthouseRun) +
    args.runs * 3 * 120_000;
  const watchdog = setTimeout(() => {
    log(`the benchmark took longer than ${Math.round(limitMs / 60_000)} min: stopping`);
    cleanup().finally(() => process.exit(2));
  }, limitMs);
  watchdog.unref();

  await startServers(snapshot);
  log(
    `site on ${SITE}, remotes on ${snapshot.remotes.map((r) => r.port).join(', ')}; ${routes.length} route(s), ${args.runs} run(s); Chromium ${executablePath}`,
  );

  const results = routes.map((route) => ({ route }));
  let browserVersion;
  let navigation;

  // 1. first-load bytes; 4. navigation (one browser, closed before Lighthouse starts)
  {
    const { browser, close } = await launchBrowser(chromium, executablePath);
    browserVersion = browser.version();
    for (const r of results) {
      try {
        r.firstLoad = await withTimeout(
          measureFirstLoad(browser, r.route, snapshot),
          TIMEOUT.goto + TIMEOUT.networkIdle + 30_000,
          `first load of ${r.route}`,
        );
        log(
          `first load ${r.route}: HTML ${kb(r.firstLoad.html)} KB, JS ${kb(r.firstLoad.js)} KB, CSS ${kb(r.firstLoad.css)} KB, fonts ${kb(r.firstLoad.fonts)} KB gzip`,
        );
      } catch (error) {
        r.firstLoadError = error.message;
        log(`first load ${r.route}: FAILED ${error.message}`);
      }
    }
    navigation = await measureNavigation(browser, snapshot, args.runs);
    await close();
  }

  // 2 and 3. Lighthouse
  let userAgent = null;
  if (!args.skipLighthouse) {
    const lh = await runLighthouse(routes, args.runs, executablePath);
    userAgent = lh.userAgent;
    for (const r of results) r.lighthouse = lh.results[r.route];
  }

  const problems = [...snapshot.problems];
  for (const r of results) {
    if (r.firstLoadError) problems.push(`${r.route}: first load not measured: ${r.firstLoadError}`);
    if (r.firstLoad && !r.firstLoad.appReady)
      problems.push(`${r.route}: the app did not report ready`);
    if (r.firstLoad && !r.firstLoad.networkIdle)
      problems.push(
        `${r.route}: the network never went idle within ${TIMEOUT.networkIdle / 1000} s`,
      );
    if (r.firstLoad && r.firstLoad.heading !== snapshot.headings[r.route])
      problems.push(
        `${r.route}: heading "${r.firstLoad.heading}" differs from the prerendered "${snapshot.headings[r.route]}"`,
      );
  }
  const data = {
    date: new Date().toISOString(),
    durationS: Math.round((Date.now() - t0) / 1000),
    options: { routes: args.routes ?? 'all', runs: args.runs, skipLighthouse: args.skipLighthouse },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
      node: process.version,
      chromium: browserVersion,
      lighthouseUserAgent: userAgent,
      lighthouse: require('lighthouse/package.json').version,
    },
    build: snapshot.build,
    budgets: BUDGET,
    markers: LIBRARY_MARKERS,
    routes: results.map((r) => ({
      route: r.route,
      firstLoad: r.firstLoad ?? null,
      lighthouse: r.lighthouse ?? null,
      error: r.firstLoadError ?? null,
    })),
    navigation,
    problems,
  };
  data.summary = summarize(data.routes, !args.skipLighthouse);
  console.log(`\n${report(data)}`);

  const outDir = path.join(rootDir, 'bench-results');
  await fs.mkdir(outDir, { recursive: true });
  const json = `${JSON.stringify(data, null, 2)}\n`;
  await fs.writeFile(path.join(outDir, 'latest.json'), json);
  await fs.writeFile(path.join(outDir, `${data.date.replace(/[:.]/g, '-')}.json`), json);
  console.log(`\nwritten: bench-results/latest.json (and a dated copy); ${data.durationS} s`);
}

main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch(async (error) => {
    console.error(`bench: ${error.stack ?? error.message}`);
    await cleanup();
    process.exit(1);
  });
