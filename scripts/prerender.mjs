#!/usr/bin/env node
/**
 * Prerenders every page of the site into static HTML (`deploy/pages/`), so that before any script
 * runs a visitor sees the page and a crawler reads its title, description, canonical link, Open
 * Graph tags, navigation, heading and text. Also writes `sitemap.xml` and `robots.txt`.
 *
 * It renders the real pages: the built shell and the deployed remotes, in headless Chromium, with
 * reduced motion (so counters and animate-on-scroll content are captured in their final state).
 * Run it after every deployment change: a shell build, or a remote's deploy and manifest refresh.
 *
 *   node scripts/prerender.mjs            uses the site at $PRERENDER_ORIGIN if it answers, else
 *                                          starts the site and the local remotes itself
 *   SITE_URL=https://www.example.com node scripts/prerender.mjs   canonical URLs for production
 *
 * Without a Chromium it says so and leaves the pages to the client (the site still works).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { createSiteServer } from './serve-site.mjs';
import { createRemoteServer } from './serve-remote.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const require = createRequire(import.meta.url);
const { REMOTES } = require('../shared/federation.cjs');

const deployDir = process.env.DEPLOY_DIR ?? path.join(root, 'deploy');
const shellDist = process.env.SHELL_DIST ?? path.join(root, 'shell', 'dist');
const siteUrl = (process.env.SITE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const SHELL_PATHS = ['/', '/about', '/contact'];
const NOT_FOUND_SAMPLE = '/this-page-does-not-exist';

function chromiumPath() {
  return [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p) => p && existsSync(p),
  );
}

async function reachable(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1500) });
    return res.status < 500;
  } catch {
    return false;
  }
}

/** Starts the site and the local remotes in this process when they are not already running. */
async function ensureServers(manifest, origin) {
  const started = [];
  const listen = (server, port) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  if (!(await reachable(`${origin}/remotes.json`))) {
    const port = Number(new URL(origin).port || 80);
    started.push(
      await listen(
        createSiteServer({ root: shellDist, deployDir, apiTarget: 'http://127.0.0.1:9' }),
        port,
      ),
    );
  }
  for (const remote of manifest.remotes) {
    const entry = new URL(remote.entry);
    if (!['localhost', '127.0.0.1'].includes(entry.hostname)) continue;
    if (await reachable(`${entry.origin}/${remote.version}/routes.json`)) continue;
    const folder = Object.entries(REMOTES).find(([, r]) => r.name === remote.name)?.[0];
    if (!folder) continue;
    started.push(
      await listen(createRemoteServer(path.join(root, folder, 'dist')), Number(entry.port)),
    );
  }
  return () => Promise.all(started.map((s) => new Promise((r) => s.close(r))));
}

/**
 * What the prerendered pages were made from: the shell's index.html and, per remote, its entry and
 * version. Pages whose stamp differs from the current one are stale and must be made again.
 */
export async function sourceStamp() {
  const template = await fs.readFile(path.join(shellDist, 'index.html'), 'utf8');
  const manifest = JSON.parse(await fs.readFile(path.join(deployDir, 'remotes.json'), 'utf8'));
  const remotes = manifest.remotes.map((r) => [r.name, r.entry, r.version, r.routes.length]);
  return createHash('sha256').update(template).update(JSON.stringify(remotes)).digest('hex');
}

export const stampFile = () => path.join(deployDir, 'pages', '.source');

const escapeHtml = (s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The shell's style sheets, inlined: the first paint then waits for no request but the HTML. The
 * files stay in the build for the client's own use; their URLs inside are absolute (`/assets/…`).
 */
async function inlineStyles(template) {
  const links = [...template.matchAll(/<link\b[^>]*\brel="?stylesheet"?[^>]*>/g)];
  let html = template;
  for (const [tag] of links) {
    const href = /\bhref="?([^"\s>]+)"?/.exec(tag)?.[1];
    if (!href?.startsWith('/')) continue;
    const css = await fs.readFile(path.join(shellDist, href), 'utf8');
    html = html.replace(tag, `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`);
  }
  return html;
}

/** Builds a page's HTML from the shell's own index.html and what the browser rendered. */
function pageHtml(template, page) {
  const head = [
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
    page.canonical ? `<link rel="canonical" href="${escapeHtml(page.canonical)}" />` : '',
    page.robots ? `<meta name="robots" content="${escapeHtml(page.robots)}" />` : '',
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(page.siteName)}" />`,
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    page.canonical ? `<meta property="og:url" content="${escapeHtml(page.canonical)}" />` : '',
    `<meta name="twitter:card" content="summary" />`,
  ]
    .filter(Boolean)
    .join('\n    ');
  // The page's text is all in the HTML, so it paints first and the scripts follow: the shell's
  // own (the template's `<script defer>` tags) and those the page went on to load in the browser
  // (its group's remote entry and page chunk), all requested together, without competing with the
  // first paint, instead of one after another. Until they run, links work as plain links.
  const shellScripts = [];
  const withoutScripts = template.replace(
    /<script\b[^>]*\bsrc="?([^"\s>]+)"?[^>]*><\/script>/g,
    (_, src) => {
      shellScripts.push(src);
      return '';
    },
  );
  const json = (value) => JSON.stringify(value).replace(/</g, '\\u003c');
  const loader = `<script>(${startScripts.toString()})(${json(shellScripts)},${json(page.scripts)})</script>`;
  const html = withoutScripts
    .replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(/<meta\s+name="?description"?[^>]*>/, head)
    .replace(/<div id="?root"?><\/div>/, `<div id="root">${page.body}</div>`);
  const end = html.lastIndexOf('</body>');
  return `${html.slice(0, end)}${loader}${html.slice(end)}`;
}

/**
 * Runs in the page: once the first contentful paint is on screen (its timing entry is reported
 * then), preloads `preload` and adds `scripts` in order. Where paint timing is missing it waits for
 * the first frame, and a timer stands in where no paint comes (a page opened in a background tab).
 */
function startScripts(scripts, preload) {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    for (const href of preload) {
      const link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = href;
      document.head.append(link);
    }
    for (const src of scripts) {
      const script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.body.append(script);
    }
  };
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(go);
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(go));
  }
  setTimeout(go, 2000);
}

async function main() {
  const manifest = JSON.parse(await fs.readFile(path.join(deployDir, 'remotes.json'), 'utf8'));
  const indexablePaths = [
    ...SHELL_PATHS,
    ...manifest.remotes.flatMap((r) => r.routes.map((route) => route.path)),
  ];

  await fs.mkdir(deployDir, { recursive: true });
  await fs.writeFile(
    path.join(deployDir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${indexablePaths
      .map((p) => `  <url><loc>${siteUrl}${p === '/' ? '/' : p}</loc></url>`)
      .join('\n')}\n</urlset>\n`,
  );
  await fs.writeFile(
    path.join(deployDir, 'robots.txt'),
    `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`,
  );

  const executablePath = chromiumPath();
  let chromium;
  try {
    ({ chromium } = await import('@playwright/test'));
  } catch {
    chromium = null;
  }
  if (!chromium || (!executablePath && !process.env.PLAYWRIGHT_BROWSERS_PATH)) {
    console.warn(
      'prerender: no Chromium found (set CHROME_PATH); pages will be rendered in the browser only',
    );
    return;
  }

  const origin = process.env.PRERENDER_ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const stopServers = await ensureServers(manifest, origin);
  const shellTemplate = await fs.readFile(path.join(shellDist, 'index.html'), 'utf8');
  const template = await inlineStyles(shellTemplate);
  const inTemplate = new Set(
    [...shellTemplate.matchAll(/<script\b[^>]*\bsrc="?([^"\s>]+)"?/g)].map((m) => m[1]),
  );
  const outDir = path.join(deployDir, 'pages');
  const nextDir = `${outDir}.next`;
  await fs.rm(nextDir, { recursive: true, force: true });
  await fs.mkdir(nextDir, { recursive: true });

  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      viewport: { width: 1280, height: 900 },
    });
    // The map's tiles are not part of the page's HTML; keep the renderer off the network.
    await context.route(/tile\.openstreetmap\.org/, (route) => route.abort());
    // Every page starts from the shell's current index.html, never from an earlier prerendered copy
    // (which may point at assets a new shell build has replaced).
    await context.route(
      (url) => url.origin === origin,
      (route) =>
        route.continue(
          route.request().resourceType() === 'document'
            ? { headers: { ...route.request().headers(), 'x-prerender': 'shell' } }
            : undefined,
        ),
    );
    const targets = [
      ...indexablePaths.map((p) => ({
        path: p,
        file: p === '/' ? 'index.html' : `${p.slice(1)}/index.html`,
      })),
      { path: NOT_FOUND_SAMPLE, file: '404.html' },
    ];
    let done = 0;
    await Promise.all(
      [0, 1].map(async () => {
        const page = await context.newPage();
        const errors = [];
        let scripts = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('request', (request) => {
          if (request.resourceType() === 'script') scripts.push(request.url());
        });
        for (let t = targets.shift(); t; t = targets.shift()) {
          scripts = [];
          await page.goto(`${origin}${t.path}`, { waitUntil: 'networkidle' });
          await page.waitForSelector('html[data-app-ready="true"] main h1', { timeout: 20000 });
          const captured = await page.evaluate(() => {
            const root = document.getElementById('root');
            // React renders `{n}%` as two text nodes; in HTML they would read back as one, and the
            // client's hydration would not match. A comment between them keeps them apart, as
            // React's own server rendering does.
            if (root) {
              const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
              const split = [];
              for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                if (n.previousSibling?.nodeType === Node.TEXT_NODE) split.push(n);
              }
              for (const n of split) n.parentNode.insertBefore(document.createComment(' '), n);
            }
            const meta = (sel) => document.head.querySelector(sel)?.getAttribute('content') ?? '';
            return {
              title: document.title,
              description: meta('meta[name="description"]'),
              robots: meta('meta[name="robots"]'),
              canonical:
                document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? '',
              body: root ? root.innerHTML : '',
            };
          });
          if (errors.length) throw new Error(`${t.path}: ${errors.join('; ')}`);
          if (captured.body.includes('class="notice-page"')) {
            throw new Error(
              `${t.path}: its page group could not be loaded; is its remote deployed and reachable?`,
            );
          }
          const swap = (s) => s.split(origin).join(siteUrl);
          const preloads = [...new Set(scripts)]
            .map((url) => (url.startsWith(`${origin}/`) ? url.slice(origin.length) : url))
            .filter((url) => !inTemplate.has(url));
          const html = pageHtml(template, {
            ...captured,
            scripts: preloads,
            siteName: 'Highveld Digital',
            canonical: captured.canonical ? swap(captured.canonical) : '',
            body: swap(captured.body),
          });
          const file = path.join(nextDir, t.file);
          await fs.mkdir(path.dirname(file), { recursive: true });
          await fs.writeFile(file, html);
          done += 1;
        }
        await page.close();
      }),
    );
    await fs.writeFile(path.join(nextDir, '.source'), await sourceStamp());
    // Swap the new pages in at once, so the site never serves a half-written set.
    await fs.rm(`${outDir}.old`, { recursive: true, force: true });
    if (existsSync(outDir)) await fs.rename(outDir, `${outDir}.old`);
    await fs.rename(nextDir, outDir);
    await fs.rm(`${outDir}.old`, { recursive: true, force: true });
    console.log(
      `prerendered ${done} pages into ${path.relative(process.cwd(), outDir)} (canonical origin ${siteUrl})`,
    );
  } finally {
    await browser.close();
    await stopServers();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`prerender: ${error.message}`);
    process.exit(1);
  });
}
