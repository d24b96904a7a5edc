/**
 * Cached pages per second: the site server against nginx serving the same pages as files, and the
 * cluster run's load balancer (its nginx configuration, keeping public answers for a second) in
 * front of the same site server.
 *
 * Side by side in one run, on ports 3450 to 3455: the site server as its own process (one render
 * worker, its manifest in a PostgreSQL of the bench run: database.ts) with its four remotes, and nginx with one worker process serving the pages the site's
 * own export wrote (`shell/server/export/export.ts`, same manifest, same composition). Both send gzip:
 * the site server its cached gzip (level 9), nginx the export's pages gzipped at level 9 beforehand
 * (`gzip_static`), so both do no compression while measured. After a warm-up, wrk (1 thread, 50
 * connections) measures each page on each side for several rounds, alternating which side goes
 * first, and the medians give the ratios site server / nginx and balancer / nginx. The balancer
 * runs with one worker process too, on 3449; the load average is read before and after.
 *
 *   node --import tsx scripts/bench/throughput.ts [--rounds 4] [--seconds 5]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SHELL_PAGES, SITE_REMOTES } from '@site/contracts/site';
import { findNginx, writeBalancerConfig } from '../lib/cluster';
import { buildManifest, writeManifest } from '../manifest';
import { cleanup, fmt, log, median, onCleanup } from './util';
import { printThroughput } from './throughput-report';
import {
  CONNECTIONS,
  ENCODING,
  THREADS,
  medianOf,
  portFree,
  start,
  startRemoteHosts,
  wrk,
  type Sample,
} from './processes';
import { readCounts } from '../lib/args';
import { siteDatabase } from './database';

const root = path.join(__dirname, '..', '..');

/**
 * The site and nginx, then one static host per group in the site table (3452 on); the cluster's
 * load balancer in front of the site server below them.
 */
export const THROUGHPUT_PORTS = {
  site: 3450,
  nginx: 3451,
  balancer: 3449,
  remotes: SITE_REMOTES.map((_, i) => 3452 + i),
};
export const THROUGHPUT_AIM = { ratio: 0.75, p99Ms: 10 };

export interface ThroughputFigures {
  encoding: string;
  connections: number;
  threads: number;
  seconds: number;
  rounds: number;
  nginxVersion: string;
  /** Whether every page's HTML was the same on every side. */
  sameHtml: boolean;
  /** /proc/loadavg before and after the measurement. */
  loadavg: { before: string; after: string };
  pages: {
    path: string;
    /** The answer's gzip body, in bytes, from each side. */
    bytes: { site: number; nginx: number; balancer: number } | undefined;
    site: Sample & { rounds: Sample[] };
    nginx: Sample & { rounds: Sample[] };
    /** Through the cluster's load balancer, which keeps the page for a second. */
    balancer: Sample & { rounds: Sample[] };
    ratio: number;
    balancerRatio: number;
  }[];
  /** Medians over the pages. */
  ratio: number;
  balancerRatio: number;
  siteP99Ms: number;
  aim: typeof THROUGHPUT_AIM & { ratioMet: boolean; p99Met: boolean };
}

/** Installs a Debian package when its program is missing (the benchmark's machine is Debian). */
export function ensureProgram(program: string, pkg: string): void {
  if (existsSync(program)) return;
  log(`${program} is missing: apt-get install -y ${pkg}`);
  const result = spawnSync('apt-get', ['install', '-y', pkg], { stdio: 'inherit' });
  if (result.status !== 0 || !existsSync(program))
    throw new Error(`${pkg} could not be installed (apt-get install -y ${pkg})`);
}

export function nginxConfig(dir: string, exportDir: string, port: number): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  gzip off;
  gzip_static on;
  gzip_vary on;
  server {
    listen 127.0.0.1:${port};
    root ${exportDir};
    location / {
      try_files $uri $uri/index.html =404;
    }
    error_page 404 /404.html;
  }
}
`;
}

/** Every file in a folder tree. */
async function filesIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesIn(file)));
    else out.push(file);
  }
  return out;
}

/** A page asked for in the measured coding: fetch decodes it, the header says what was sent. */
export async function gzipped(
  url: string,
): Promise<{ html: string; encoding: string | null; bytes: number }> {
  const res = await fetch(url, { headers: { 'Accept-Encoding': ENCODING } });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return {
    html: await res.text(),
    encoding: res.headers.get('content-encoding'),
    bytes: Number(res.headers.get('content-length') ?? NaN),
  };
}

/** The machine's load, as /proc/loadavg says it (1, 5 and 15 minutes, tasks, last pid). */
function loadavg(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return os.loadavg().join(' ');
  }
}

export async function measureThroughput({
  rounds = 4,
  seconds = 5,
}: { rounds?: number; seconds?: number } = {}): Promise<ThroughputFigures> {
  ensureProgram('/usr/sbin/nginx', 'nginx');
  ensureProgram('/usr/bin/wrk', 'wrk');
  const ports = [
    THROUGHPUT_PORTS.site,
    ...THROUGHPUT_PORTS.remotes,
    THROUGHPUT_PORTS.nginx,
    THROUGHPUT_PORTS.balancer,
  ];
  for (const port of ports) {
    if (!(await portFree(port)))
      throw new Error(
        `port ${port} is in use: the throughput measurement needs ${ports.join(', ')}`,
      );
  }
  const loadBefore = loadavg();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-throughput-'));
  onCleanup(() => fs.rm(dir, { recursive: true, force: true }));
  // nginx's worker drops root's rights: it must be able to read the export.
  await fs.chmod(dir, 0o755);
  const deployDir = path.join(dir, 'deploy');
  const exportDir = path.join(dir, 'export');
  const siteUrl = `http://127.0.0.1:${THROUGHPUT_PORTS.site}`;

  // The manifest of the local builds, each remote on a port of this measurement.
  const env = await startRemoteHosts(THROUGHPUT_PORTS.remotes);
  const manifest = await buildManifest({ env });
  await writeManifest(path.join(deployDir, 'remotes.json'), manifest);
  const siteEnv = {
    SITE_URL: siteUrl,
    DEPLOY_DIR: deployDir,
    // The export reads the live manifest where the site server does.
    DATABASE_URL: await siteDatabase(deployDir),
    SHELL_DIST: path.join(root, 'shell', 'dist'),
  };

  log('throughput: exporting the pages for nginx (npm run export)');
  const exported = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'shell', 'server', 'export', 'export.ts'),
      '--out',
      exportDir,
    ],
    { cwd: root, env: { ...process.env, ...siteEnv }, encoding: 'utf8' },
  );
  if (exported.status !== 0)
    throw new Error(`the export failed:\n${exported.stdout}${exported.stderr}`);
  // What nginx sends for gzip: every file gzipped as the site server gzips (level 9).
  for (const file of await filesIn(exportDir)) {
    if (file.endsWith('.gz')) continue;
    await fs.writeFile(`${file}.gz`, zlib.gzipSync(await fs.readFile(file), { level: 9 }));
  }
  for (const file of [exportDir, ...(await filesIn(exportDir))]) await fs.chmod(file, 0o755);

  await start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'shell', 'server', 'main.ts')],
    {
      ...siteEnv,
      PORT: String(THROUGHPUT_PORTS.site),
      RENDER_WORKERS: '1',
      MAIL_SERVICE_URL: 'http://127.0.0.1:9',
    },
    `${siteUrl}/favicon.svg`,
  );
  await fs.writeFile(
    path.join(dir, 'nginx.conf'),
    nginxConfig(dir, exportDir, THROUGHPUT_PORTS.nginx),
  );
  const nginxVersion = spawnSync('/usr/sbin/nginx', ['-v'], { encoding: 'utf8' })
    .stderr.trim()
    .replace(/^nginx version: /, '');
  await start(
    '/usr/sbin/nginx',
    ['-p', dir, '-c', path.join(dir, 'nginx.conf')],
    {},
    `http://127.0.0.1:${THROUGHPUT_PORTS.nginx}/`,
  );

  // The cluster run's load balancer, with one worker like the nginx above, in front of the site
  // server.
  const balancerDir = path.join(dir, 'balancer');
  await fs.mkdir(balancerDir);
  const balancerConfig = writeBalancerConfig({
    dir: balancerDir,
    port: THROUGHPUT_PORTS.balancer,
    sites: [THROUGHPUT_PORTS.site],
    mailServices: [9],
    workers: 1,
  });
  await start(
    findNginx(),
    ['-p', balancerDir, '-c', balancerConfig, '-g', 'daemon off;'],
    {},
    `http://127.0.0.1:${THROUGHPUT_PORTS.balancer}/`,
  );

  // A service page: the first route of the first group.
  const servicePage = (manifest.remotes[0]?.routes[0] as { path?: string } | undefined)?.path;
  const pages = [SHELL_PAGES.home, SHELL_PAGES.about, ...(servicePage ? [servicePage] : [])];
  const sides = {
    site: `http://127.0.0.1:${THROUGHPUT_PORTS.site}`,
    nginx: `http://127.0.0.1:${THROUGHPUT_PORTS.nginx}`,
    balancer: `http://127.0.0.1:${THROUGHPUT_PORTS.balancer}`,
  };
  const SIDES = ['site', 'nginx', 'balancer'] as const;

  // Every side must send the same page in the same coding.
  let sameHtml = true;
  const bytes: Record<string, { site: number; nginx: number; balancer: number }> = {};
  for (const page of pages) {
    const [site, nginx, balancer] = await Promise.all(
      SIDES.map((side) => gzipped(`${sides[side]}${page}`)),
    );
    if (!site || !nginx || !balancer) throw new Error(`${page}: a side did not answer`);
    if ([site, nginx, balancer].some((answer) => answer.encoding !== ENCODING))
      throw new Error(
        `${page}: Content-Encoding ${site.encoding} from the site server, ${nginx.encoding} from nginx, ${balancer.encoding} from the balancer; all must be ${ENCODING}`,
      );
    bytes[page] = { site: site.bytes, nginx: nginx.bytes, balancer: balancer.bytes };
    if (site.html !== nginx.html || balancer.html !== site.html) {
      sameHtml = false;
      log(
        `throughput: ${page}: the HTML differs between the site server, the export and the balancer`,
      );
    }
    // The balancer answers from what it keeps once it has the page.
    const kept = await fetch(`${sides.balancer}${page}`, {
      headers: { 'Accept-Encoding': ENCODING },
    });
    await kept.arrayBuffer();
    if (kept.headers.get('x-cache-status') !== 'HIT')
      throw new Error(
        `${page}: the balancer answered ${kept.headers.get('x-cache-status')}, not HIT, the second time`,
      );
  }

  log(`throughput: warming both sides (${pages.length} pages)`);
  for (const page of pages) {
    for (const side of SIDES) await wrk(`${sides[side]}${page}`, 2);
  }
  const samples: Record<string, Record<(typeof SIDES)[number], Sample[]>> = Object.fromEntries(
    pages.map((p) => [p, { site: [], nginx: [], balancer: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    // Each side goes first, second and last in turn.
    const order = [...SIDES.slice(round % 3), ...SIDES.slice(0, round % 3)];
    for (const page of pages) {
      for (const side of order) {
        const sample = await wrk(`${sides[side]}${page}`, seconds);
        samples[page]?.[side].push(sample);
        log(
          `throughput round ${round + 1}/${rounds} ${side} ${page}: ${fmt(sample.rps)} req/s, p50 ${fmt(sample.p50Ms, 2)} ms, p99 ${fmt(sample.p99Ms, 2)} ms`,
        );
      }
    }
  }

  const loadAfter = loadavg();
  const perPage = pages.map((page) => {
    const s = samples[page] ?? { site: [], nginx: [], balancer: [] };
    const site = { ...medianOf(s.site), rounds: s.site };
    const nginx = { ...medianOf(s.nginx), rounds: s.nginx };
    const balancer = { ...medianOf(s.balancer), rounds: s.balancer };
    return {
      path: page,
      bytes: bytes[page],
      site,
      nginx,
      balancer,
      ratio: site.rps / nginx.rps,
      balancerRatio: balancer.rps / nginx.rps,
    };
  });
  const ratio = median(perPage.map((p) => p.ratio)) ?? NaN;
  const balancerRatio = median(perPage.map((p) => p.balancerRatio)) ?? NaN;
  const siteP99Ms = Math.max(...perPage.map((p) => p.site.p99Ms));
  return {
    encoding: ENCODING,
    connections: CONNECTIONS,
    threads: THREADS,
    seconds,
    rounds,
    nginxVersion,
    sameHtml,
    loadavg: { before: loadBefore, after: loadAfter },
    pages: perPage,
    ratio,
    balancerRatio,
    siteP99Ms,
    aim: {
      ...THROUGHPUT_AIM,
      ratioMet: ratio >= THROUGHPUT_AIM.ratio,
      p99Met: siteP99Ms <= THROUGHPUT_AIM.p99Ms,
    },
  };
}

if (require.main === module) {
  measureThroughput(readCounts(process.argv.slice(2), { rounds: 4, seconds: 5 }))
    .then(printThroughput)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}
