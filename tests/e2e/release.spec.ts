import path from 'node:path';
import { expect } from '@playwright/test';
import { SITE_REMOTES } from '@site/contracts/site';
import { ROOT, test, type TestDeployment } from '../support/deployment';
import { groupToken, teamCommand } from '../support/team-commands';

/**
 * Several groups released together through the deploy API: one compare-and-swap makes every
 * group's new entry live or none, and one rollback takes the whole release back. Ports: the site
 * 3123, second origins of the data and public-health groups 3124 and 3125.
 */
const TOKEN = 'release-deploy-token-0123456789';
const SITE = 'http://localhost:3123';
const DATA_ORIGIN = 'http://localhost:3124';
const HEALTH_ORIGIN = 'http://localhost:3125';
const ALLOWED = [
  ...SITE_REMOTES.map((r) => `http://localhost:${r.port}`),
  DATA_ORIGIN,
  HEALTH_ORIGIN,
];

interface Remote {
  name: string;
  entry: string;
  version: string;
}
interface Live {
  version: string;
  manifest: { remotes: Remote[] };
}
interface Change {
  action: string;
  remote: string;
  from: { entry: string } | null;
  to: { entry: string };
  reason: string;
  manifestVersion: string;
  release?: string;
}

async function api(method: string, route: string, body?: unknown) {
  const response = await fetch(`${SITE}${route}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const live = async () => (await api('GET', '/_deploy/manifest')).body as unknown as Live;
const history = async () => (await api('GET', '/_deploy/history')).body.history as Change[];
/** A release's entry for a group: its version folder on the given origin. */
const entry = (name: string, origin: string, version: string) => ({
  name,
  entry: `${origin}/${version}/remoteEntry.js`,
  version,
});
const entryOf = (manifest: Live, name: string) =>
  manifest.manifest.remotes.find((r) => r.name === name)?.entry;

async function startSite(deployment: TestDeployment) {
  await deployment.writeManifest({});
  await deployment.startSite(3123, { deploy: { token: TOKEN, allowedOrigins: ALLOWED } });
  await deployment.startRemote(path.join(ROOT, 'mfe-data', 'dist'), 3124);
  await deployment.startRemote(path.join(ROOT, 'mfe-public-health', 'dist'), 3125);
}

test.describe('a release of several groups', () => {
  test('goes live in one change, and one rollback takes every group back', async ({
    deployment,
  }) => {
    test.setTimeout(120_000);
    await startSite(deployment);
    const before = await live();
    const recorded = (await history()).length;

    const released = await api('POST', '/_deploy/releases', {
      base: before.version,
      entries: [
        entry('data', DATA_ORIGIN, '1.0.0'),
        entry('public_health', HEALTH_ORIGIN, '1.0.0'),
      ],
      reason: 'shared upgrade, both groups',
      by: 'platform-ci',
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const release = released.body.release as string;
    expect(release).toMatch(/^r-[0-9a-f]{12}$/);

    // One new manifest holds both new entries; every other group is as it was.
    const after = await live();
    expect(after.version).toBe(released.body.manifestVersion);
    expect(entryOf(after, 'data')).toBe(`${DATA_ORIGIN}/1.0.0/remoteEntry.js`);
    expect(entryOf(after, 'public_health')).toBe(`${HEALTH_ORIGIN}/1.0.0/remoteEntry.js`);
    for (const name of ['custom_dev', 'enterprise_education']) {
      expect(entryOf(after, name)).toBe(entryOf(before, name));
    }
    const served = (await (await fetch(`${SITE}/remotes.json`)).json()) as Live['manifest'];
    expect(served.remotes.find((r) => r.name === 'data')?.entry).toContain(DATA_ORIGIN);
    // The history: one entry per group, both under the release's id and the same manifest.
    const changes = (await history()).slice(recorded);
    expect(changes.map((c) => [c.remote, c.release, c.manifestVersion, c.reason])).toEqual([
      ['data', release, after.version, 'shared upgrade, both groups'],
      ['public_health', release, after.version, 'shared upgrade, both groups'],
    ]);
    // Both groups' pages are served from their new origins.
    for (const page of ['/services/data-analytics/big-data', '/public-health/MandE-tools']) {
      expect((await fetch(`${SITE}${page}`)).status).toBe(200);
    }

    const rolledBack = await api('POST', `/_deploy/releases/${release}/rollback`, {
      base: after.version,
      by: 'platform-ci',
    });
    expect(rolledBack.status, JSON.stringify(rolledBack.body)).toBe(200);
    const back = await live();
    expect(back.manifest.remotes.map((r) => [r.name, r.entry])).toEqual(
      before.manifest.remotes.map((r) => [r.name, r.entry]),
    );
    const undone = (await history()).slice(recorded + 2);
    expect(undone.map((c) => [c.action, c.remote, c.reason])).toEqual([
      ['rollback', 'data', `roll back release ${release}`],
      ['rollback', 'public_health', `roll back release ${release}`],
    ]);
    expect(new Set(undone.map((c) => c.release)).size).toBe(1);
    expect(undone[0]!.release).not.toBe(release);

    // A release that was rolled back cannot be rolled back again: its groups have moved on.
    const again = await api('POST', `/_deploy/releases/${release}/rollback`, {
      base: back.version,
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('moved_on');
  });

  test('in which one group fails its checks leaves every group as it was', async ({
    deployment,
  }) => {
    test.setTimeout(120_000);
    await startSite(deployment);
    const before = await live();
    const recorded = (await history()).length;
    const manifestText = await (await fetch(`${SITE}/remotes.json`)).text();

    // The first group's entry is sound; the second names a version its origin does not hold.
    const refused = await api('POST', '/_deploy/releases', {
      base: before.version,
      entries: [
        entry('data', DATA_ORIGIN, '1.0.0'),
        entry('public_health', HEALTH_ORIGIN, '9.9.9'),
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(`${HEALTH_ORIGIN}/9.9.9/routes.json`);
    expect(await (await fetch(`${SITE}/remotes.json`)).text()).toBe(manifestText);
    expect((await live()).version).toBe(before.version);
    expect(await history()).toHaveLength(recorded);

    // Bad requests are refused with the reason before anything is fetched.
    const twice = await api('POST', '/_deploy/releases', {
      base: before.version,
      entries: [entry('data', DATA_ORIGIN, '1.0.0'), entry('data', DATA_ORIGIN, '1.0.0')],
    });
    expect([twice.status, twice.body.message]).toEqual([
      400,
      '"data" is named twice in one release',
    ]);
    const empty = await api('POST', '/_deploy/releases', { base: before.version, entries: [] });
    expect(empty.status).toBe(400);
    const unknown = await api('POST', '/_deploy/releases/r-000000000000/rollback', {
      base: before.version,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('no_such_release');
  });
  test("a team's command releases two groups together and takes the release back", async ({
    deployment,
  }) => {
    test.setTimeout(180_000);
    await startSite(deployment);
    const before = await live();
    const env = {
      DEPLOY_API: SITE,
      // A release needs a token valid for every group it names: one made for both.
      DEPLOY_TOKEN: groupToken(SITE, TOKEN, 'data', 'public_health'),
      DEPLOY_BY: 'data-ci',
      REMOTE_DATA_URL: DATA_ORIGIN,
      REMOTE_PUBLIC_HEALTH_URL: HEALTH_ORIGIN,
    };
    // The data team's own token moves data alone: the release is refused, nothing changes.
    const alone = teamCommand(
      path.join(ROOT, 'mfe-data'),
      { ...env, DEPLOY_TOKEN: groupToken(SITE, TOKEN, 'data') },
      '--with',
      'mfe-public-health',
    );
    expect(alone.status).toBe(1);
    expect(alone.stderr).toMatch(
      /refused \(HTTP 403, group_not_allowed\): the deploy token group:data#[0-9a-f]{12} may change only data, not public_health; nothing was changed/,
    );
    expect(await live()).toEqual(before);
    const released = teamCommand(
      path.join(ROOT, 'mfe-data'),
      env,
      '--with',
      'mfe-public-health',
      '--reason',
      'together',
    );
    expect(released.status, released.stdout + released.stderr).toBe(0);
    const id = /released (r-[0-9a-f]{12}): live manifest /.exec(released.stdout)?.[1];
    expect(id, released.stdout).toBeDefined();
    expect(released.stdout).toContain('  data: 1.0.0 -> 1.0.0');
    expect(released.stdout).toContain('  public_health: 1.0.0 -> 1.0.0');
    const after = await live();
    expect(entryOf(after, 'data')).toBe(`${DATA_ORIGIN}/1.0.0/remoteEntry.js`);
    expect(entryOf(after, 'public_health')).toBe(`${HEALTH_ORIGIN}/1.0.0/remoteEntry.js`);

    const back = teamCommand(path.join(ROOT, 'mfe-data'), env, '--rollback', '--release', id!);
    expect(back.status, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toContain(`rolled back release ${id} with release r-`);
    expect((await live()).manifest.remotes.map((r) => r.entry)).toEqual(
      before.manifest.remotes.map((r) => r.entry),
    );
  });
});
