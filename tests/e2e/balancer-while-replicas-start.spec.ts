import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { startPostgres } from '@site/build/testing/postgres';
import { balancerWaitsFor, findNginx, writeBalancerConfig } from '../../scripts/lib/cluster';
import { firstAnswer } from '../../scripts/lib/processes';
import { endProcess, test, type TestDeployment } from '../support/deployment';

/**
 * The load balancer while its replicas start: `npm run start:cluster` starts nginx and the site
 * servers together, and visitors arrive as soon as the site's address answers. Ports: nginx 3500,
 * site servers 3501-3503, PostgreSQL 3508; the suite's remotes and mail-service (3001-3005).
 */
const LB = 'http://localhost:3500';
const PORTS = [3501, 3502, 3503];
const PAGES = ['/', '/about', '/services/data-analytics/big-data', '/public-health/MandE-tools'];

/** The site server started for `port` among a deployment's processes (read from its environment). */
function siteOn(deployment: TestDeployment, port: number): ChildProcess {
  const found = deployment.children.find((child) => {
    try {
      return readFileSync(`/proc/${child.pid}/environ`, 'utf8')
        .split('\0')
        .includes(`PORT=${port}`);
    } catch {
      return false;
    }
  });
  if (!found) throw new Error(`no site server on ${port}`);
  return found;
}

/** `concurrency` visitors asking for pages through the balancer until `stop()`. */
function burst(concurrency: number) {
  const failures: string[] = [];
  let answers = 0;
  let phase = 'start';
  let running = true;
  const workers = Array.from({ length: concurrency }, async (_, w) => {
    for (let i = w; running; i++) {
      const page = PAGES[i % PAGES.length]!;
      try {
        // A query of its own: the balancer keeps no answer for it, so every request reaches a
        // replica.
        const response = await fetch(`${LB}${page}?visit=${w}-${i}`, {
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        answers += 1;
        if (response.status >= 400) failures.push(`${phase} ${page}: ${response.status}`);
      } catch (error) {
        failures.push(`${phase} ${page}: ${String(error)}`);
      }
    }
  });
  return {
    failures,
    answers: () => answers,
    set phase(p: string) {
      phase = p;
    },
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

test('no visitor gets an error while the replicas start, nor while one of them restarts', async ({
  deployment,
}) => {
  test.setTimeout(180_000);
  const postgres = await startPostgres({ port: 3508 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cluster-start-'));
  let nginx: ChildProcess | undefined;
  try {
    await deployment.writeManifest({});
    const startSite = (port: number) =>
      deployment.startSite(port, {
        trustProxy: 'loopback',
        env: { DATABASE_URL: postgres.url, SITE_URL: LB, REPLICA_NAME: `replica-${port}` },
      });
    const config = writeBalancerConfig({ dir, port: 3500, sites: PORTS, mailServices: [3005] });
    // As `npm run start:cluster` does: every replica at once, and the balancer once one answers.
    const started = Promise.all(PORTS.map(startSite));
    await firstAnswer(balancerWaitsFor(PORTS));
    nginx = spawn(findNginx(), ['-p', dir, '-c', config, '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    // Visitors arrive once the site's address answers at all.
    await expect
      .poll(
        () =>
          fetch(`${LB}/_health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    const load = burst(50);
    await started;
    // Every replica has been asked for pages through the balancer.
    await expect.poll(() => load.answers(), { timeout: 60_000 }).toBeGreaterThan(500);
    const restarted = siteOn(deployment, 3502);
    load.phase = 'restart';
    restarted.kill('SIGTERM');
    await new Promise((resolve) => restarted.once('exit', resolve));
    await startSite(3502);
    const before = load.answers();
    await expect.poll(() => load.answers(), { timeout: 60_000 }).toBeGreaterThan(before + 500);
    await load.stop();
    console.log(
      `cluster start: ${load.answers()} answers, ${load.failures.length} failed (load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
    expect(load.failures.slice(0, 20), `${load.failures.length} failed`).toEqual([]);
  } finally {
    await endProcess(nginx);
    await deployment.close();
    rmSync(dir, { recursive: true, force: true });
    await postgres.stop();
  }
});
