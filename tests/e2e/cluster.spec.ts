import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/shared/site';
import { startPostgres, type TestPostgres } from '@site/shared/testing/postgres';
import { findNginx, writeBalancerConfig } from '../../scripts/lib/cluster';
import { test, type TestDeployment } from '../support/deployment';

/**
 * The site as it runs in production, through its load balancer: three site servers on one
 * PostgreSQL behind nginx (the configuration `npm run start:cluster` writes), and visitors'
 * requests through nginx while a replica is killed. Ports: nginx 3190, site servers 3191-3193,
 * PostgreSQL 3198; the remotes and the mail-service of the suite (3001-3005).
 */
const TOKEN = 'cluster-deploy-token-0123456789';
const LB = 'http://localhost:3190';
const PORTS = [3191, 3192, 3193];
const ALLOWED = SITE_REMOTES.map((r) => `http://localhost:${r.port}`);
const PAGES = ['/', '/about', '/services/data-analytics/big-data', '/public-health/MandE-tools'];

interface Cluster {
  postgres: TestPostgres;
  sites: Map<number, ChildProcess>;
  start(port: number): Promise<void>;
  close(): Promise<void>;
}

async function startCluster(deployment: TestDeployment): Promise<Cluster> {
  const postgres = await startPostgres({ port: 3198 });
  await deployment.writeManifest({});
  const sites = new Map<number, ChildProcess>();
  const start = async (port: number) => {
    const before = deployment.children.length;
    await deployment.startSite(port, {
      deploy: { token: TOKEN, allowedOrigins: ALLOWED },
      trustProxy: 'loopback',
      env: { DATABASE_URL: postgres.url, SITE_URL: LB },
    });
    sites.set(port, deployment.children[before]!);
  };
  // One after another, so each process is known by its port.
  for (const port of PORTS) await start(port);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cluster-lb-'));
  const config = writeBalancerConfig({ dir, port: 3190, sites: PORTS, mailServices: [3005] });
  const nginx = spawn(findNginx(), ['-p', dir, '-c', config, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${LB}/about`).catch(() => null))?.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    postgres,
    sites,
    start,
    async close() {
      // The database's clients first, then the database.
      await deployment.close();
      if (nginx.exitCode === null && nginx.signalCode === null) {
        const exited = new Promise((r) => nginx.once('exit', r));
        nginx.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      }
      rmSync(dir, { recursive: true, force: true });
      await postgres.stop();
    },
  };
}

/** Visitors asking for pages through the load balancer, 8 at a time, until `stop()`. */
function visitors() {
  const statuses: number[] = [];
  const failures: string[] = [];
  let running = true;
  const workers = Array.from({ length: 8 }, async (_, w) => {
    for (let i = w; running; i++) {
      const page = PAGES[i % PAGES.length]!;
      try {
        const response = await fetch(`${LB}${page}`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        statuses.push(response.status);
        if (response.status !== 200) failures.push(`${page}: ${response.status}`);
      } catch (error) {
        failures.push(`${page}: ${String(error)}`);
      }
    }
  });
  return {
    statuses,
    failures,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

test.describe('the site behind its load balancer, on PostgreSQL', () => {
  test('visitors get their pages through the load balancer while a replica is killed', async ({
    deployment,
  }) => {
    test.setTimeout(180_000);
    const cluster = await startCluster(deployment);
    try {
      // A replica killed under load: only requests in flight on it could be lost, and nginx
      // retries those (a GET is idempotent) on another replica.
      const step = (what: string) => console.log(`cluster: ${what}`);
      step('load, and a replica killed');
      const load = visitors();
      await new Promise((r) => setTimeout(r, 1500));
      cluster.sites.get(3192)!.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 3000));
      await load.stop();
      expect(load.statuses.length).toBeGreaterThan(50);
      expect(load.failures.length, load.failures.join('\n')).toBeLessThanOrEqual(8);
      step(`${load.statuses.length} answers, ${load.failures.length} failed`);
    } finally {
      await cluster.close();
    }
  });
});
