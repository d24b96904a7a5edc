/**
 * The site as it grows: what a page costs at the size it is today, at about 100 and at about 1,000
 * routes, grown the way teams grow it (a route in a group's table and a content file for it, copied
 * from the group's real pages).
 *
 * Everything happens in a scratch copy in a temporary folder: the grown group is copied there (its
 * sources, not its builds), given its extra routes and built once, at the largest size, with
 * webpack; the smaller sizes publish the first routes of that build's table (the routes a manifest
 * names are the site's pages). The other groups are their own builds in this checkout, read only.
 * Per size, on ports 3490 on: the site server as its own process (one render worker, as the
 * throughput measurement runs it), every group's static host in one process (as `npm start` runs
 * them), nginx with one worker; then
 *
 * - two crawls of every page: the page's bytes (raw and gzip, the median page) and its embedded
 *   manifest's, the composition time of a page not cached (the median answer of the first crawl,
 *   and the server's own mean), the page cache's hit rate in each crawl (the site's metrics);
 * - a deploy of the grown group (a new version folder of the same build): how many of the other
 *   pages are still hits;
 * - the processes and memory (RSS) of the site server with its render processes and the static host,
 *   as `npm start` runs them (the mail-service, the same at any size, is not counted);
 * - cached pages per second against nginx serving the same gzip bytes as files (wrk, as
 *   throughput.ts measures, fewer and shorter rounds).
 *
 * Every figure is printed with the 1-minute load average taken when it was measured: on a loaded
 * machine the ratios between sizes are what count.
 *
 *   npm run bench -- --only scale
 *   node --import tsx scripts/bench/scale.ts [--sizes 100,1000] [--rounds 2] [--seconds 3]
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SHELL_PAGES, SITE_REMOTES } from '@site/contracts/site';
import { buildManifest, writeManifest } from '../manifest';
import { medianOf, portFree, start, wrk, type Sample } from './processes';
import { ensureProgram, gzipped, nginxConfig } from './throughput';
import { cleanup, fmt, log, median, onCleanup, table } from './util';

const root = path.join(__dirname, '..', '..');

export const SCALE_PORTS = {
  site: 3490,
  nginx: 3491,
  groups: SITE_REMOTES.map((_, i) => 3492 + i),
};
/** Sizes in routes (the shell's pages and every group's); the site as it is comes first. */
export const SCALE_SIZES = [100, 1000];
/** The group that grows: the one with two prefixes, as a team with a growing catalogue has. */
export const GROWN = SITE_REMOTES.find((r) => r.prefixes.length > 1) ?? SITE_REMOTES[0]!;
const METRICS_TOKEN = 'scale-bench-metrics-token';
const MANIFEST_ELEMENT = /<script type="application\/json" id="site-manifest">([\s\S]*?)<\/script>/;

/** A figure and the 1-minute load average when it was taken. */
export interface Measured {
  value: number;
  load: number;
}
const measured = (value: number): Measured => ({ value, load: os.loadavg()[0] ?? NaN });

export interface SizeFigures {
  routes: number;
  /** The median page's bytes, raw and gzip (level 9). */
  pageBytes: Measured;
  pageGzipBytes: Measured;
  /** The median page's embedded manifest. */
  manifestBytes: Measured;
  /** `/remotes.json`, as the site serves it. */
  remotesJsonBytes: Measured;
  /** A page not cached: the median answer time of the first crawl, and the server's own mean. */
  composeMs: Measured;
  serverComposeMs: Measured;
  /** Page cache hits over look-ups, per crawl. */
  firstCrawlHitRate: Measured;
  secondCrawlHitRate: Measured;
  /** After a deploy of the grown group: hits among the pages that are not that group's. */
  afterDeployOthersHitRate: Measured;
  processes: Measured;
  rssMb: Measured;
  /** Cached pages per second, site server / nginx (median over the pages). */
  nginxRatio: Measured;
  siteRps: Measured;
  nginxRps: Measured;
}

export interface ScaleFigures {
  grown: string;
  buildSeconds: number;
  sizes: SizeFigures[];
}

interface Route {
  path: string;
  title: string;
  description: string;
  group?: string;
  navLabel?: string;
}

/** The manifest of the local builds, as far as this measurement reads it. */
type Manifest = Omit<Awaited<ReturnType<typeof buildManifest>>, 'remotes'> & {
  remotes: (Omit<Awaited<ReturnType<typeof buildManifest>>['remotes'][number], 'routes'> & {
    routes: { path: string }[];
  })[];
};
const manifestOf = async (options: Parameters<typeof buildManifest>[0]): Promise<Manifest> =>
  (await buildManifest(options)) as Manifest;

/** The last path segment, lower case: the page's content module (shared/ui's `contentModule`). */
const contentModule = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();
const pageFile = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}/index.html`);

/**
 * The scratch site: the site table with this measurement's ports, the grown group's sources copied
 * and grown by `extra` routes, the other groups linked to this checkout's (read only).
 */
export async function growSite(dir: string, extra: number): Promise<string> {
  const site = path.join(dir, 'site');
  await fs.mkdir(path.join(site, 'shared', 'contracts'), { recursive: true });
  await fs.symlink(path.join(root, 'node_modules'), path.join(site, 'node_modules'));
  await fs.copyFile(path.join(root, 'tsconfig.json'), path.join(site, 'tsconfig.json'));
  const table = JSON.parse(
    readFileSync(path.join(root, 'shared', 'contracts', 'site.json'), 'utf8'),
  ) as { remotes: { port: number }[] };
  table.remotes.forEach((r, i) => (r.port = SCALE_PORTS.groups[i]!));
  await fs.writeFile(
    path.join(site, 'shared', 'contracts', 'site.json'),
    `${JSON.stringify(table, null, 2)}\n`,
  );
  for (const group of SITE_REMOTES) {
    if (group !== GROWN) {
      await fs.symlink(path.join(root, group.folder), path.join(site, group.folder));
      continue;
    }
    await fs.cp(path.join(root, group.folder), path.join(site, group.folder), {
      recursive: true,
      filter: (source) => !/[/\\](dist|node_modules)$/.test(source),
    });
  }
  const src = path.join(site, GROWN.folder, 'src');
  const tableFile = path.join(src, 'routes.json');
  const routes = JSON.parse(await fs.readFile(tableFile, 'utf8')) as {
    prefixes: string[];
    routes: Route[];
  };
  const originals = [...routes.routes];
  for (let n = 0; n < extra; n++) {
    const source = originals[n % originals.length]!;
    const prefix =
      routes.prefixes.find((p) => source.path === p || source.path.startsWith(`${p}/`)) ??
      routes.prefixes[0]!;
    const slug = `${contentModule(source.path)}-${n + 2}`;
    await fs.copyFile(
      path.join(src, 'content', `${contentModule(source.path)}.ts`),
      path.join(src, 'content', `${slug}.ts`),
    );
    routes.routes.push({
      ...source,
      path: `${prefix}/${slug}`,
      title: `${source.title} ${n + 2}`,
      ...(source.navLabel
        ? { navLabel: `${source.navLabel.replace(/ overview$/, '')} ${n + 2}` }
        : {}),
    });
  }
  await fs.writeFile(tableFile, `${JSON.stringify(routes, null, 2)}\n`);
  return site;
}

/** Builds of grown groups kept between runs, by a digest of what they were built from. */
const BUILDS = path.join(os.tmpdir(), 'bench-scale-builds');

/** Every file under `dir`, by its path relative to `dir`, in a stable order. */
function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(file, base));
    else out.push(path.relative(base, file));
  }
  return out;
}

/**
 * What the grown group's build is made from: its sources, its build settings, the shared packages
 * and the installed versions. The same digest is the same build, so a second run (the same group
 * measured before and after a change to the site server) builds once.
 */
export function buildDigest(groupDir: string): string {
  const hash = createHash('sha256');
  const add = (dir: string, files: string[]) => {
    for (const file of files) hash.update(file).update(readFileSync(path.join(dir, file)));
  };
  add(groupDir, [
    ...filesUnder(path.join(groupDir, 'src')).map((f) => path.join('src', f)),
    'package.json',
    'webpack.config.js',
  ]);
  for (const shared of ['ui', 'build', 'contracts']) {
    const dir = path.join(root, 'shared', shared);
    add(dir, filesUnder(dir));
  }
  add(root, ['package-lock.json', 'tsconfig.json', 'tsconfig.build.json']);
  return hash.digest('hex').slice(0, 24);
}

/** One production build of the grown group, with webpack as `npm run build -w` runs it. */
function buildGrown(site: string): number {
  const started = Date.now();
  log(`scale: building ${GROWN.folder} with its grown route table (one webpack build)`);
  const result = spawnSync(
    process.execPath,
    [require.resolve('webpack-cli/bin/cli.js'), '--mode', 'production'],
    { cwd: path.join(site, GROWN.folder), encoding: 'utf8', timeout: 60 * 60_000 },
  );
  if (result.status !== 0)
    throw new Error(`the grown group's build failed:\n${result.stdout}${result.stderr}`);
  return Math.round((Date.now() - started) / 1000);
}

/** The manifest with the grown group's routes cut so that the site has `size` routes. */
function sized(full: Manifest, size: number, shellPages: number): Manifest {
  const others = full.remotes
    .filter((r) => r.name !== GROWN.name)
    .reduce((n, r) => n + r.routes.length, 0);
  return {
    ...full,
    remotes: full.remotes.map((r) =>
      r.name === GROWN.name ? { ...r, routes: r.routes.slice(0, size - others - shellPages) } : r,
    ),
  };
}

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
    wrk(`${siteUrl}${page}`, 1);
    wrk(`${nginxUrl}${page}`, 1);
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['site', 'nginx'] as const) : (['nginx', 'site'] as const);
    pages.forEach((page, i) => {
      for (const side of order)
        samples[i]![side].push(wrk(`${side === 'site' ? siteUrl : nginxUrl}${page}`, seconds));
    });
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

async function measureSize(
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
  const siteUrl = `http://127.0.0.1:${SCALE_PORTS.site}`;
  log(`scale: ${routes} routes: starting the site server`);
  const child = await start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'shell', 'server', 'main.ts')],
    {
      SITE_URL: siteUrl,
      DEPLOY_DIR: deployDir,
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

export async function measureScale({
  sizes = SCALE_SIZES,
  rounds = 2,
  seconds = 3,
}: { sizes?: number[]; rounds?: number; seconds?: number } = {}): Promise<ScaleFigures> {
  ensureProgram('/usr/sbin/nginx', 'nginx');
  ensureProgram('/usr/bin/wrk', 'wrk');
  for (const port of [SCALE_PORTS.site, SCALE_PORTS.nginx, ...SCALE_PORTS.groups]) {
    if (!(await portFree(port)))
      throw new Error(`port ${port} is in use: the scale measurement needs 3490 to 3495`);
  }
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-scale-'));
  onCleanup(() => fs.rm(scratch, { recursive: true, force: true }));
  // nginx's worker and the render processes drop root's rights: they must be able to read it.
  await fs.chmod(scratch, 0o755);

  const shellPages = Object.values(SHELL_PAGES).length;
  const local = await manifestOf({});
  const today = shellPages + local.remotes.reduce((n, r) => n + r.routes.length, 0);
  const largest = Math.max(today, ...sizes);
  const site = await growSite(scratch, largest - today);
  const grownDist = path.join(site, GROWN.folder, 'dist');
  const kept = path.join(BUILDS, buildDigest(path.join(site, GROWN.folder)));
  let buildSeconds = 0;
  if (existsSync(kept)) {
    log(`scale: the grown group's build of these same sources is reused (${kept})`);
    await fs.cp(kept, grownDist, { recursive: true });
  } else {
    buildSeconds = buildGrown(site);
    log(`scale: the grown group built in ${buildSeconds} s`);
    await fs.mkdir(BUILDS, { recursive: true });
    await fs.cp(grownDist, `${kept}.tmp`, { recursive: true });
    await fs.rename(`${kept}.tmp`, kept);
  }

  const version = readdirSync(grownDist).find((v) => !v.startsWith('.'))!;
  // The version a deploy publishes: the same files under a new version folder.
  const nextVersion = `${version}-next`;
  await fs.cp(path.join(grownDist, version), path.join(grownDist, nextVersion), {
    recursive: true,
  });
  const env = Object.fromEntries(
    SITE_REMOTES.map((r, i) => [
      `REMOTE_${r.name.toUpperCase()}_URL`,
      `http://127.0.0.1:${SCALE_PORTS.groups[i]}`,
    ]),
  );
  const full = await manifestOf({
    dists: { [GROWN.name]: grownDist },
    env,
    versions: { [GROWN.name]: version },
  });
  const next = await manifestOf({
    dists: { [GROWN.name]: grownDist },
    env,
    versions: { [GROWN.name]: nextVersion },
  });

  const host = await start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts', 'serve-remote.ts'), '--site', site],
    {},
    `http://127.0.0.1:${SCALE_PORTS.groups[0]}/`,
  );
  const nginxRoot = path.join(scratch, 'nginx-root');
  await fs.mkdir(nginxRoot, { mode: 0o755 });
  await fs.writeFile(
    path.join(scratch, 'nginx.conf'),
    nginxConfig(scratch, nginxRoot, SCALE_PORTS.nginx),
  );
  await fs.writeFile(path.join(nginxRoot, 'index.html'), '');
  await start(
    '/usr/sbin/nginx',
    ['-p', scratch, '-c', path.join(scratch, 'nginx.conf')],
    {},
    `http://127.0.0.1:${SCALE_PORTS.nginx}/`,
  );

  const figures: SizeFigures[] = [];
  for (const size of [today, ...sizes.filter((s) => s > today)]) {
    figures.push(
      await measureSize(
        scratch,
        sized(full, size, shellPages),
        sized(next, size, shellPages),
        host.pid!,
        nginxRoot,
        { rounds, seconds },
      ),
    );
  }
  return { grown: GROWN.name, buildSeconds, sizes: figures };
}

const kib = (m: Measured) => fmt(m.value / 1024, 1);
const pct = (m: Measured) => `${fmt(m.value * 100, 1)} %`;

/** The scale table as text: the header line, the table, the ratios of the largest size. */
export function scaleReport(f: ScaleFigures): string {
  const lines: string[] = [];
  lines.push(
    `Scale: the site grown in group ${f.grown} (${f.buildSeconds ? `one webpack build, ${f.buildSeconds} s` : 'a kept build of the same sources'}); each figure with the 1-minute load average when it was taken (${os.cpus().length} cores)`,
  );
  const rows: [string, (s: SizeFigures) => Measured, (m: Measured) => string][] = [
    ['page KB raw (median page)', (s) => s.pageBytes, kib],
    ['page KB gzip', (s) => s.pageGzipBytes, kib],
    ['embedded manifest KB', (s) => s.manifestBytes, kib],
    ['/remotes.json KB', (s) => s.remotesJsonBytes, kib],
    ['composition ms (median, uncached)', (s) => s.composeMs, (m) => fmt(m.value, 1)],
    ['  server mean ms', (s) => s.serverComposeMs, (m) => fmt(m.value, 1)],
    ['hit rate, first crawl', (s) => s.firstCrawlHitRate, pct],
    ['hit rate, second crawl', (s) => s.secondCrawlHitRate, pct],
    ['other pages hit after a group deploy', (s) => s.afterDeployOthersHitRate, pct],
    ['processes (site server + static host)', (s) => s.processes, (m) => fmt(m.value)],
    ['RSS MB', (s) => s.rssMb, (m) => fmt(m.value)],
    ['cached page req/s, site server', (s) => s.siteRps, (m) => fmt(m.value)],
    ['cached page req/s, nginx', (s) => s.nginxRps, (m) => fmt(m.value)],
    ['site server / nginx', (s) => s.nginxRatio, (m) => `${fmt(m.value, 2)}×`],
  ];
  lines.push(
    table(
      ['routes', ...f.sizes.map((s) => String(s.routes))],
      rows.map(([label, get, show]) => [
        label,
        ...f.sizes.map((s) => `${show(get(s))} (load ${fmt(get(s).load, 1)})`),
      ]),
    ),
  );
  const first = f.sizes[0];
  const last = f.sizes[f.sizes.length - 1];
  if (first && last && last !== first) {
    lines.push(
      `  ${last.routes} routes against ${first.routes}: page bytes ${fmt(last.pageBytes.value / first.pageBytes.value, 2)}× raw, ${fmt(last.pageGzipBytes.value / first.pageGzipBytes.value, 2)}× gzip (aim ≤ 1.2×); composition ${fmt(last.composeMs.value / first.composeMs.value, 2)}× (aim ≤ 1.2×)`,
    );
  }
  return lines.join('\n');
}

export function printScale(f: ScaleFigures): void {
  console.log(`\n${scaleReport(f)}`);
}

const DOC = path.join(root, 'docs', 'performance.md');
const DOC_START = '<!-- bench:scale -->';
const DOC_END = '<!-- /bench:scale -->';

/**
 * Writes the table into docs/performance.md between its markers, with the date, the machine and
 * its load, so the figures there are the last run's and cannot drift from what the bench printed.
 */
export async function writeScaleDoc(f: ScaleFigures): Promise<void> {
  const doc = await fs.readFile(DOC, 'utf8');
  const start = doc.indexOf(DOC_START);
  const end = doc.indexOf(DOC_END);
  if (start === -1 || end < start) {
    log(`scale: ${DOC} has no ${DOC_START} … ${DOC_END} section: not written`);
    return;
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(', ');
  const block = [
    DOC_START,
    '',
    `Written by \`npm run bench -- --only scale\` on ${new Date().toISOString()} (Node ${process.version}, ${os.cpus().length} × ${cpu}, load average at the end ${load}):`,
    '',
    '```text',
    scaleReport(f),
    '```',
    '',
    DOC_END,
  ].join('\n');
  await fs.writeFile(DOC, doc.slice(0, start) + block + doc.slice(end + DOC_END.length));
  log(`scale: written into ${path.relative(root, DOC)}`);
}

if (require.main === module) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const sizes = arg('--sizes')?.split(',').map(Number);
  measureScale({
    ...(sizes ? { sizes } : {}),
    rounds: Number(arg('--rounds') ?? 2),
    seconds: Number(arg('--seconds') ?? 3),
  })
    .then(async (figures) => {
      printScale(figures);
      await writeScaleDoc(figures);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}
