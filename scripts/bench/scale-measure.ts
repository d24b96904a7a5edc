/**
 * One size of the scale measurement: the site server started on a manifest of that many routes,
 * crawled twice, the grown group deployed again (published through the control plane, on a database
 * of its own: database.ts), its processes counted and its cached pages timed against nginx; every
 * figure with the load average when it was taken.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SHELL_PAGES } from '@site/contracts/site';
import { writeManifest, type buildManifest } from '../manifest';
import { publishManifest, siteDatabase } from './database';
import { medianOf, start, wrk, type Sample } from './processes';
import { GROWN, SCALE_PORTS } from './scale-grow';
import type { Measured, SizeFigures } from './scale-report';
import { gzipped } from './throughput';
import { fmt, log, median } from './util';

const root = path.join(__dirname, '..', '..');

const METRICS_TOKEN = 'scale-bench-metrics-token';
const MANIFEST_ELEMENT = /<script type="application\/json" id="site-manifest">([\s\S]*?)<\/script>/;

const measured = (value: number): Measured => ({ value, load: os.loadavg()[0] ?? NaN });

/** The manifest of the local builds, as far as this measurement reads it. */
export type Manifest = Omit<Awaited<ReturnType<typeof buildManifest>>, 'remotes'> & {
  remotes: (Omit<Awaited<ReturnType<typeof buildManifest>>['remotes'][number], 'routes'> & {
    routes: { path: string }[];
  })[];
};

const pageFile = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}/index.html`);

/** The process and every process under it, from /proc. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The sum of a Prometheus counter's series whose labels include `labels`. */
function metric(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (!/^[{ ]/.test(rest) || !rest.includes(labels)) continue;
    sum += Number(rest.slice(rest.lastIndexOf(' ') + 1)) || 0;
  }
  return sum;
}

async function metrics(site: string): Promise<string> {
  const res = await fetch(`${site}/_metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  if (!res.ok) throw new Error(`/_metrics answered ${res.status}`);
  return res.text();
}

interface Lookups {
  hits: number;
  all: number;
}
async function lookups(site: string): Promise<Lookups> {
  const text = await metrics(site);
  const hits = metric(text, 'site_page_cache_requests_total', 'result="hit"');
  return { hits, all: hits + metric(text, 'site_page_cache_requests_total', 'result="miss"') };
}
const hitRate = (before: Lookups, after: Lookups): number =>
  (after.hits - before.hits) / Math.max(1, after.all - before.all);

interface Crawled {
  path: string;
  ms: number;
  html: string;
}

/** Every page once, one after another, as a crawler asks (gzip). */
async function crawl(site: string, paths: readonly string[]): Promise<Crawled[]> {
  const out: Crawled[] = [];
  for (const p of paths) {
    const started = performance.now();
    const res = await fetch(`${site}${p}`, { headers: { 'Accept-Encoding': 'gzip' } });
    const html = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    out.push({ path: p, ms, html });
  }
  return out;
}

async function waitForVersion(site: string, version: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const text = await fetch(`${site}/remotes.json`).then((r) => r.text());
    if (text.includes(`"version":"${version}"`) || text.includes(`"version": "${version}"`)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the site server did not take version ${version} within 30 s`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Cached pages per second on both sides, alternating which goes first; median of the pages. */
async function againstNginx(
  siteUrl: string,
  nginxRoot: string,
  pages: readonly string[],
  rounds: number,
  seconds: number,
): Promise<{ ratio: number; site: number; nginx: number }> {
  const nginxUrl = `http://127.0.0.1:${SCALE_PORTS.nginx}`;
  for (const page of pages) {
    const { html } = await gzipped(`${siteUrl}${page}`);
    const file = path.join(nginxRoot, pageFile(page));
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    await fs.writeFile(file, html, { mode: 0o644 });
    await fs.writeFile(`${file}.gz`, zlib.gzipSync(html, { level: 9 }), { mode: 0o644 });
  }
  const samples = pages.map(() => ({ site: [] as Sample[], nginx: [] as Sample[] }));
  for (const page of pages) {
    await wrk(`${siteUrl}${page}`, 1);
    await wrk(`${nginxUrl}${page}`, 1);
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['site', 'nginx'] as const) : (['nginx', 'site'] as const);
    for (const [i, page] of pages.entries()) {
      for (const side of order)
        samples[i]![side].push(
          await wrk(`${side === 'site' ? siteUrl : nginxUrl}${page}`, seconds),
        );
    }
  }
  const perPage = samples.map((s) => ({
    site: medianOf(s.site).rps,
    nginx: medianOf(s.nginx).rps,
  }));
  return {
    ratio: median(perPage.map((p) => p.site / p.nginx)) ?? NaN,
    site: median(perPage.map((p) => p.site)) ?? NaN,
    nginx: median(perPage.map((p) => p.nginx)) ?? NaN,
  };
}

export async function measureSize(
  scratch: string,
  manifest: Manifest,
  next: Manifest,
  hostPid: number,
  nginxRoot: string,
  { rounds, seconds }: { rounds: number; seconds: number },
): Promise<SizeFigures> {
  const shellPaths = Object.values(SHELL_PAGES);
  const grown = manifest.remotes.find((r) => r.name === GROWN.name)!;
  const paths = [...shellPaths, ...manifest.remotes.flatMap((r) => r.routes.map((x) => x.path))];
  const routes = paths.length;
  const deployDir = path.join(scratch, `deploy-${routes}`);
  await writeManifest(path.join(deployDir, 'remotes.json'), manifest);
  // A database of its own per size: no history or cached composition of another size.
  const databaseUrl = await siteDatabase(deployDir);
  const siteUrl = `http://127.0.0.1:${SCALE_PORTS.site}`;
  log(`scale: ${routes} routes: starting the site server`);
  const child = await start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'shell', 'server', 'main.ts')],
    {
      SITE_URL: siteUrl,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: databaseUrl,
      SHELL_DIST: path.join(root, 'shell', 'dist'),
      PORT: String(SCALE_PORTS.site),
      RENDER_WORKERS: '1',
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
      METRICS_TOKEN,
    },
    `${siteUrl}/favicon.svg`,
  );
  try {
    const remotesJsonBytes = measured(
      Buffer.byteLength(await fetch(`${siteUrl}/remotes.json`).then((r) => r.text())),
    );
    const before = await lookups(siteUrl);
    const first = await crawl(siteUrl, paths);
    const composeMs = measured(median(first.map((c) => c.ms)) ?? NaN);
    const afterFirst = await lookups(siteUrl);
    const firstCrawlHitRate = measured(hitRate(before, afterFirst));
    const text = await metrics(siteUrl);
    const serverComposeMs = measured(
      (metric(text, 'site_page_composition_seconds_sum') * 1000) /
        Math.max(1, metric(text, 'site_page_composition_seconds_count')),
    );
    log(`scale: ${routes} routes: first crawl done (median ${fmt(composeMs.value, 1)} ms)`);
    const raw = first.map((c) => Buffer.byteLength(c.html));
    const pageBytes = measured(median(raw) ?? NaN);
    const pageGzipBytes = measured(
      median(first.map((c) => zlib.gzipSync(c.html, { level: 9 }).length)) ?? NaN,
    );
    const manifestBytes = measured(
      median(first.map((c) => Buffer.byteLength(MANIFEST_ELEMENT.exec(c.html)?.[1] ?? ''))) ?? NaN,
    );

    await crawl(siteUrl, paths);
    const afterSecond = await lookups(siteUrl);
    const secondCrawlHitRate = measured(hitRate(afterFirst, afterSecond));
    log(`scale: ${routes} routes: second crawl: ${fmt(secondCrawlHitRate.value * 100)} % hits`);

    const tree = [...processTree(child.pid!), ...processTree(hostPid)];
    const processes = measured(tree.length);
    const rssMb = measured(tree.reduce((n, pid) => n + rssKb(pid), 0) / 1024);

    // A deploy of the grown group: the same build in a new version folder.
    const nextGrown = next.remotes.find((r) => r.name === GROWN.name)!;
    await writeManifest(path.join(deployDir, 'remotes.json'), {
      ...manifest,
      generatedAt: new Date().toISOString(),
      remotes: manifest.remotes.map((r) =>
        r.name === GROWN.name ? { ...nextGrown, routes: grown.routes } : r,
      ),
    });
    await publishManifest(databaseUrl, deployDir);
    await waitForVersion(siteUrl, nextGrown.version);
    const grownPaths = new Set(grown.routes.map((r) => r.path));
    const beforeDeployCrawl = await lookups(siteUrl);
    await crawl(
      siteUrl,
      paths.filter((p) => !grownPaths.has(p)),
    );
    const afterDeployOthersHitRate = measured(hitRate(beforeDeployCrawl, await lookups(siteUrl)));
    log(
      `scale: ${routes} routes: after a deploy of ${GROWN.name}: ${fmt(afterDeployOthersHitRate.value * 100)} % hits on the other pages`,
    );

    const vsNginx = await againstNginx(
      siteUrl,
      nginxRoot,
      [SHELL_PAGES.home, SHELL_PAGES.about, grown.routes[0]!.path],
      rounds,
      seconds,
    );
    log(`scale: ${routes} routes: site / nginx ${fmt(vsNginx.ratio, 2)}×`);
    return {
      routes,
      pageBytes,
      pageGzipBytes,
      manifestBytes,
      remotesJsonBytes,
      composeMs,
      serverComposeMs,
      firstCrawlHitRate,
      secondCrawlHitRate,
      afterDeployOthersHitRate,
      processes,
      rssMb,
      nginxRatio: measured(vsNginx.ratio),
      siteRps: measured(vsNginx.site),
      nginxRps: measured(vsNginx.nginx),
    };
  } finally {
    await stop(child);
  }
}
