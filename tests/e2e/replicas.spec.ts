import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { startPostgres, type TestPostgres } from '@site/build/testing/postgres';
import { ROOT, test } from '../support/deployment';

/**
 * Three site servers, one control plane: each a `shell/server/main.ts` process with DATABASE_URL
 * (ports 3480-3482), the remotes' builds on hosts of their own (3483-3486), PostgreSQL on 3489.
 * A deploy through any replica is served by all of them within a second; a replica killed while
 * it serves takes nothing with it; while the database is down every replica keeps serving and a
 * deploy is refused with the reason.
 */
const TOKEN = 'replicas-deploy-token-0123456789';
const SITES = [3480, 3481, 3482].map((port) => `http://localhost:${port}`);
const HOSTS = Object.fromEntries(
  SITE_REMOTES.map((r, i) => [r.name, `http://localhost:${3483 + i}`]),
);

async function api(site: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${site}${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const manifestOf = async (site: string) => (await fetch(`${site}/remotes.json`)).text();

/** Milliseconds until every site in `sites` serves `text` as its manifest. */
async function servedBy(sites: string[], text: string, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const served = await Promise.all(sites.map(manifestOf));
    if (served.every((s) => s === text)) return Date.now() - started;
    if (Date.now() - started > limitMs) {
      throw new Error(`not served by every replica within ${limitMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A deploy of public_health's live version again, through `site`, from the manifest `base`. */
const redeploy = (site: string, base: string, reason: string) =>
  api(site, 'PUT', '/_deploy/remotes/public_health', {
    base,
    entry: `${HOSTS.public_health}/1.0.0/remoteEntry.js`,
    version: '1.0.0',
    reason,
    by: 'replicas-test',
  });

test.describe('replicas of the site server on one PostgreSQL', () => {
  let postgres: TestPostgres;
  test.beforeAll(async () => {
    postgres = await startPostgres({ port: 3489 });
  });
  test.afterAll(async () => {
    await postgres.stop();
  });

  test('a deploy through one replica is served by the others within 1 s; a killed replica takes nothing with it', async ({
    deployment,
  }) => {
    test.setTimeout(180_000);
    for (const remote of SITE_REMOTES) {
      await deployment.startRemote(
        path.join(ROOT, remote.folder, 'dist'),
        Number(new URL(HOSTS[remote.name]!).port),
      );
    }
    await deployment.writeManifest({ urls: HOSTS });
    const seedText = readFileSync(path.join(deployment.deployDir, 'remotes.json'), 'utf8');
    const firstChild = deployment.children.length;
    // Started together on an empty database: one of them seeds it from the deploy folder.
    await Promise.all(
      SITES.map((site) =>
        deployment.startSite(Number(new URL(site).port), {
          deploy: { token: TOKEN, allowedOrigins: Object.values(HOSTS) },
          env: { DATABASE_URL: postgres.url },
        }),
      ),
    );
    const [one, two, three] = SITES as [string, string, string];

    for (const site of SITES) expect(await manifestOf(site)).toBe(seedText);
    const seeded = await api(three, 'GET', '/_deploy/history');
    expect(
      (seeded.body.history as { action: string; by: string; remote: string }[]).map((e) => [
        e.action,
        e.by,
        e.remote,
      ]),
    ).toEqual(SITE_REMOTES.map((r) => ['seed', 'site', r.name]));

    // A deploy through replica 1 is what replicas 2 and 3 serve next, by notification: the docs
    // say within a second and the replicas benchmark measures it; here a busy machine gets three,
    // still under the 5 s poll that stands in for a lost notification.
    const base = (await api(one, 'GET', '/_deploy/manifest')).body.version as string;
    const deployed = await redeploy(one, base, 'through replica 1');
    expect(deployed.status).toBe(200);
    const liveText = await manifestOf(one);
    expect(liveText).not.toBe(seedText);
    const latency = await servedBy([two, three], liveText, 3000);
    console.log(
      `replicas: a deploy through replica 1 was served by replicas 2 and 3 ${latency} ms after its answer`,
    );
    const live = (await api(three, 'GET', '/_deploy/manifest')).body;
    expect(live.version).toBe(deployed.body.manifestVersion);

    // The same base through another replica is stale now: exactly one change per base.
    const stale = await redeploy(two, base, 'through replica 2, from the old base');
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('stale_base');

    // Replica 1 is killed while all three are asked for pages; replicas 2 and 3 answer every one.
    const statuses = new Map<string, number[]>(SITES.map((s) => [s, []]));
    let asking = true;
    const load = SITES.map(async (site) => {
      while (asking) {
        try {
          statuses.get(site)!.push((await fetch(`${site}/public-health/MandE-tools`)).status);
        } catch {
          statuses.get(site)!.push(0);
          if (site === one) return;
        }
      }
    });
    const answers = (site: string) => statuses.get(site)!.length;
    // Every replica is answering before one of them is killed.
    await expect.poll(() => Math.min(...SITES.map(answers))).toBeGreaterThanOrEqual(5);
    const killed = deployment.children[firstChild]!;
    const exited = new Promise((resolve) => killed.once('exit', resolve));
    killed.kill('SIGKILL');
    await exited;
    // Killed, it has nothing left to stop when the test ends.
    deployment.children.splice(firstChild, 1);
    // The survivors go on answering after the kill: ten more pages each.
    const atKill = [two, three].map(answers);
    await expect
      .poll(() => Math.min(answers(two) - atKill[0]!, answers(three) - atKill[1]!))
      .toBeGreaterThanOrEqual(10);
    asking = false;
    await Promise.all(load);
    for (const site of [two, three]) {
      const answered = statuses.get(site)!;
      expect(answered.length).toBeGreaterThan(10);
      expect(answered.filter((s) => s !== 200)).toEqual([]);
    }
    expect(statuses.get(one)).toContain(0);

    // The survivors go on: a deploy through replica 2 is served by replica 3.
    const next = await redeploy(two, live.version as string, 'through replica 2, replica 1 gone');
    expect(next.status).toBe(200);
    await servedBy([three], await manifestOf(two), 1000);

    // The database down: replicas serve what they have; a deploy is refused with the reason.
    const served = await manifestOf(three);
    await postgres.pause();
    try {
      const refused = await redeploy(three, next.body.manifestVersion as string, 'database down');
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe('control_plane_unavailable');
      expect(refused.body.message).toMatch(
        /^the control-plane database is unreachable: .+; nothing was changed$/,
      );
      for (const site of [two, three]) {
        expect(await manifestOf(site)).toBe(served);
        expect((await fetch(`${site}/public-health/MandE-tools`)).status).toBe(200);
      }
    } finally {
      await postgres.resume();
    }
    await expect(async () => {
      const after = await redeploy(three, next.body.manifestVersion as string, 'database back');
      expect(after.status).toBe(200);
    }).toPass({ timeout: 10_000 });
    await servedBy([two], await manifestOf(three), 5000);
    const history = (await api(two, 'GET', '/_deploy/history?remote=public_health')).body
      .history as { action: string; reason: string }[];
    expect(history.map((e) => [e.action, e.reason])).toEqual([
      ['seed', expect.stringContaining('remotes.json') as unknown],
      ['deploy', 'through replica 1'],
      ['deploy', 'through replica 2, replica 1 gone'],
      ['deploy', 'database back'],
    ]);
  });
});
