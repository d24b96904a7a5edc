/**
 * Cached pages per second: the site server against nginx serving the same pages as files.
 *
 * Side by side in one run, on ports 3450 to 3455: the site server as its own process (one render
 * worker) with its four remotes, and nginx with one worker process serving the pages the site's
 * own export wrote (`shell/server/export.ts`, same manifest, same composition). Both send gzip:
 * the site server its cached gzip (level 9), nginx the export's pages gzipped at level 9 beforehand
 * (`gzip_static`), so both do no compression while measured. After a warm-up, wrk (1 thread, 50
 * connections) measures each page on each side for several rounds, alternating which side goes
 * first, and the medians give the ratio site server / nginx.
 *
 *   node --import tsx scripts/bench/throughput.ts [--rounds 4] [--seconds 5]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SHELL_PAGES, SITE_REMOTES } from '@site/contracts/site';
import { buildManifest, writeManifest } from '../manifest';
import { cleanup, fmt, log, median, onCleanup, table } from './util';
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

const root = path.join(__dirname, '..', '..');

/** The site and nginx, then one static host per group in the site table (3452 on). */
export const THROUGHPUT_PORTS = {
  site: 3450,
  nginx: 3451,
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
  /** Whether every page's HTML was the same on both sides. */
  sameHtml: boolean;
  pages: {
    path: string;
    /** The answer's gzip body, in bytes, from each side. */
    bytes: { site: number; nginx: number } | undefined;
    site: Sample & { rounds: Sample[] };
    nginx: Sample & { rounds: Sample[] };
    ratio: number;
  }[];
  /** Medians over the pages. */
  ratio: number;
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

export async function measureThroughput({
  rounds = 4,
  seconds = 5,
}: { rounds?: number; seconds?: number } = {}): Promise<ThroughputFigures> {
  ensureProgram('/usr/sbin/nginx', 'nginx');
  ensureProgram('/usr/bin/wrk', 'wrk');
  const ports = [THROUGHPUT_PORTS.site, ...THROUGHPUT_PORTS.remotes, THROUGHPUT_PORTS.nginx];
  for (const port of ports) {
    if (!(await portFree(port)))
      throw new Error(`port ${port} is in use: the throughput measurement needs 3450 to 3455`);
  }
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
    SHELL_DIST: path.join(root, 'shell', 'dist'),
  };

  log('throughput: exporting the pages for nginx (npm run export)');
  const exported = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'shell', 'server', 'export.ts'), '--out', exportDir],
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

  // A service page: the first route of the first group.
  const servicePage = (manifest.remotes[0]?.routes[0] as { path?: string } | undefined)?.path;
  const pages = [SHELL_PAGES.home, SHELL_PAGES.about, ...(servicePage ? [servicePage] : [])];
  const sides = {
    site: `http://127.0.0.1:${THROUGHPUT_PORTS.site}`,
    nginx: `http://127.0.0.1:${THROUGHPUT_PORTS.nginx}`,
  };

  // Both sides must send the same page in the same coding.
  let sameHtml = true;
  const bytes: Record<string, { site: number; nginx: number }> = {};
  for (const page of pages) {
    const [site, nginx] = await Promise.all([
      gzipped(`${sides.site}${page}`),
      gzipped(`${sides.nginx}${page}`),
    ]);
    if (site.encoding !== ENCODING || nginx.encoding !== ENCODING)
      throw new Error(
        `${page}: Content-Encoding ${site.encoding} from the site server, ${nginx.encoding} from nginx; both must be ${ENCODING}`,
      );
    bytes[page] = { site: site.bytes, nginx: nginx.bytes };
    if (site.html !== nginx.html) {
      sameHtml = false;
      log(`throughput: ${page}: the site server's HTML differs from the export's`);
    }
  }

  log(`throughput: warming both sides (${pages.length} pages)`);
  for (const page of pages) {
    wrk(`${sides.site}${page}`, 2);
    wrk(`${sides.nginx}${page}`, 2);
  }
  const samples: Record<string, { site: Sample[]; nginx: Sample[] }> = Object.fromEntries(
    pages.map((p) => [p, { site: [], nginx: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['site', 'nginx'] as const) : (['nginx', 'site'] as const);
    for (const page of pages) {
      for (const side of order) {
        const sample = wrk(`${sides[side]}${page}`, seconds);
        samples[page]?.[side].push(sample);
        log(
          `throughput round ${round + 1}/${rounds} ${side} ${page}: ${fmt(sample.rps)} req/s, p50 ${fmt(sample.p50Ms, 2)} ms, p99 ${fmt(sample.p99Ms, 2)} ms`,
        );
      }
    }
  }

  const perPage = pages.map((page) => {
    const s = samples[page] ?? { site: [], nginx: [] };
    const site = { ...medianOf(s.site), rounds: s.site };
    const nginx = { ...medianOf(s.nginx), rounds: s.nginx };
    return { path: page, bytes: bytes[page], site, nginx, ratio: site.rps / nginx.rps };
  });
  const ratio = median(perPage.map((p) => p.ratio)) ?? NaN;
  const siteP99Ms = Math.max(...perPage.map((p) => p.site.p99Ms));
  return {
    encoding: ENCODING,
    connections: CONNECTIONS,
    threads: THREADS,
    seconds,
    rounds,
    nginxVersion,
    sameHtml,
    pages: perPage,
    ratio,
    siteP99Ms,
    aim: {
      ...THROUGHPUT_AIM,
      ratioMet: ratio >= THROUGHPUT_AIM.ratio,
      p99Met: siteP99Ms <= THROUGHPUT_AIM.p99Ms,
    },
  };
}

export function printThroughput(f: ThroughputFigures): void {
  console.log(
    `\nThroughput: cached pages, site server against nginx ${f.nginxVersion} (1 worker), wrk ${f.threads} thread ${f.connections} connections ${f.seconds} s, Accept-Encoding: ${f.encoding}, median of ${f.rounds} rounds`,
  );
  const rows = f.pages.map((p) => [
    p.path,
    p.bytes ? `${fmt(p.bytes.site / 1024, 1)} / ${fmt(p.bytes.nginx / 1024, 1)}` : '-',
    fmt(p.site.rps),
    fmt(p.site.p50Ms, 2),
    fmt(p.site.p99Ms, 2),
    fmt(p.nginx.rps),
    fmt(p.nginx.p50Ms, 2),
    fmt(p.nginx.p99Ms, 2),
    `${fmt(p.ratio, 2)}×`,
  ]);
  console.log(
    table(
      [
        'page',
        'gzip KB',
        'site req/s',
        'p50 ms',
        'p99 ms',
        'nginx req/s',
        'p50 ms',
        'p99 ms',
        'site / nginx',
      ],
      rows,
    ),
  );
  for (const p of f.pages) {
    const list = (rounds: Sample[]) => rounds.map((s) => fmt(s.rps)).join(', ');
    console.log(`  ${p.path}: site ${list(p.site.rounds)}; nginx ${list(p.nginx.rounds)} req/s`);
  }
  if (!f.sameHtml)
    console.log("  note: a page's HTML from the site server differed from the export's");
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `  site server / nginx: ${fmt(f.ratio, 2)}× (median of the pages; aim ≥ ${f.aim.ratio}×: ${met(f.aim.ratioMet)})`,
  );
  console.log(
    `  site server p99: at most ${fmt(f.siteP99Ms, 2)} ms (aim ≤ ${f.aim.p99Ms} ms: ${met(f.aim.p99Met)})`,
  );
}

if (require.main === module) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? fallback : Number(process.argv[i + 1]);
  };
  measureThroughput({ rounds: arg('--rounds', 4), seconds: arg('--seconds', 5) })
    .then(printThroughput)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}
