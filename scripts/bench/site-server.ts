/**
 * How fast the site server answers a page: the first composition of each route after a deploy
 * (a new manifest version: every page is rendered again, remote code included) and a cached
 * answer, over every route, as p50/p95. Runs the real site server in a process of its own, as it
 * runs live, with the built shell and the local remotes' builds, on a PostgreSQL of the bench run
 * (database.ts); each deploy is published through the control plane and served before it is timed.
 *
 *   node --import tsx scripts/bench/site-server.ts [--rounds 5] [--requests 40]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256Integrity } from '@site/contracts/integrity';
import { SHELL_PATHS, SITE_REMOTES } from '@site/contracts/site';
import { createRemoteServer, type RemoteHost } from '@site/serving';
import { readCounts } from '../lib/args';
import { publishManifest, siteDatabase, untilServed } from './database';
import { cleanup } from './util';

const root = path.join(__dirname, '..', '..');

export interface SiteServerFigures {
  routes: number;
  first: { p50: number; p95: number };
  cached: { p50: number; p95: number };
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/** Waits until the site server answers `url`; fails when it stops first or takes over a minute. */
async function answering(
  url: string,
  child: ReturnType<typeof spawn>,
  errors: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the site server stopped:\n${errors()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`the site server did not answer ${url}:\n${errors()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function timed(url: string): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: { 'Accept-Encoding': 'br' } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function measureSiteServer({
  rounds = 5,
  requests = 40,
  port = 3190,
} = {}): Promise<SiteServerFigures> {
  const deployDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-site-'));
  const remotes: RemoteHost[] = [];
  const remoteList: unknown[] = [];
  const paths = [...SHELL_PATHS];
  let i = 1;
  for (const { folder, name } of SITE_REMOTES) {
    const remotePort = port + i++;
    const server = await createRemoteServer(path.join(root, folder, 'dist'));
    await server.listen(remotePort, '127.0.0.1');
    remotes.push(server);
    const version = JSON.parse(await fs.readFile(path.join(root, folder, 'package.json'), 'utf8'))
      .version as string;
    const table = JSON.parse(
      await fs.readFile(path.join(root, folder, 'dist', version, 'routes.json'), 'utf8'),
    ) as { prefixes: string[]; routes: { path: string }[] };
    paths.push(...table.routes.map((r) => r.path));
    remoteList.push({
      name,
      entry: `http://localhost:${remotePort}/${version}/remoteEntry.js`,
      version,
      prefixes: table.prefixes,
      routes: table.routes,
      serverIntegrity: sha256Integrity(
        await fs.readFile(path.join(root, folder, 'dist', version, 'server', 'pages.js')),
      ),
    });
  }
  const writeManifest = async (round: number) => {
    const manifest = {
      schemaVersion: 1,
      generatedAt: new Date(Date.now() + round).toISOString(),
      remotes: remoteList,
    };
    await fs.writeFile(path.join(deployDir, 'remotes.json'), JSON.stringify(manifest));
    return manifest;
  };
  await writeManifest(0);
  const databaseUrl = await siteDatabase(deployDir);
  const site = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'shell/server/main.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SHELL_DIST: path.join(root, 'shell', 'dist'),
        DEPLOY_DIR: deployDir,
        DATABASE_URL: databaseUrl,
        MAIL_SERVICE_URL: 'http://127.0.0.1:9',
        SITE_URL: `http://localhost:${port}`,
      },
    },
  );
  let errors = '';
  site.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    await answering(`${base}/`, site, () => errors);
    // Warm-up: the render worker's code and every remote's Node build are loaded once.
    for (const p of paths) await timed(`${base}${p}`);
    const first: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      // A deploy: the new manifest published, and served before the first page is asked for.
      const manifest = await writeManifest(round);
      await publishManifest(databaseUrl, deployDir);
      await untilServed(base, manifest);
      for (const p of paths) first.push(await timed(`${base}${p}`));
    }
    const cached: number[] = [];
    // Pages asked for again are recompressed at the strongest brotli in the background: let that
    // finish, as it does on a live site within seconds of a deploy.
    for (const p of paths) await timed(`${base}${p}`);
    await new Promise((r) => setTimeout(r, 4000));
    for (let n = 0; n < requests; n++) {
      for (const p of paths) cached.push(await timed(`${base}${p}`));
    }
    const round2 = (v: number) => Math.round(v * 100) / 100;
    return {
      routes: paths.length,
      first: { p50: round2(percentile(first, 50)), p95: round2(percentile(first, 95)) },
      cached: { p50: round2(percentile(cached, 50)), p95: round2(percentile(cached, 95)) },
    };
  } finally {
    if (site.exitCode === null) {
      site.kill('SIGTERM');
      await once(site, 'exit');
    }
    await Promise.all(remotes.map((s) => s.close()));
    await fs.rm(deployDir, { recursive: true, force: true });
  }
}

export function printSiteServer(f: SiteServerFigures): void {
  console.log(`\nSite server: time to answer a page (${f.routes} routes, ms, loopback, brotli)`);
  console.log(
    `  first composition after a deploy   p50 ${f.first.p50}   p95 ${f.first.p95}   (aim p95 < 50)`,
  );
  console.log(
    `  cached                             p50 ${f.cached.p50}   p95 ${f.cached.p95}   (aim p95 < 5)`,
  );
}

if (require.main === module) {
  measureSiteServer(readCounts(process.argv.slice(2), { rounds: 5, requests: 40 }))
    .then(printSiteServer)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => cleanup());
}
