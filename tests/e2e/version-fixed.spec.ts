import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { sha256Integrity } from '@site/contracts/integrity';
import { ready } from '../support/ready';
import { ROOT, test, type TestDeployment } from '../support/deployment';
import { buildPublicHealthNext, cloneTeamWorkspace, fingerprint } from '../support/team-build';
import { teamCommand } from '../support/team-commands';

/**
 * A version's contents are fixed once built and once published, as `npm publish` fixes a
 * package's: the public-health team's deploy refuses a version folder built from other sources
 * than its workspace holds, and a version its origin already holds with other contents. Each test
 * runs a site of its own (ports 3400-3419) and a bucket of its own, served as the team's origin,
 * which the deploy uploads to.
 */
const TOKEN = 'test-deploy-token-version-fixed';
const HEADING = 'Tools we build, configure and support';

const buckets: string[] = [];
test.afterEach(() => {
  for (const bucket of buckets.splice(0)) rmSync(bucket, { recursive: true, force: true });
});

/** A site and the team's bucket, with the group's 1.0.0 live from the bucket. */
async function siteWithBucket(deployment: TestDeployment, sitePort: number, bucketPort: number) {
  const origin = `http://localhost:${bucketPort}`;
  const site = await deployment.startSite(sitePort, {
    deploy: { token: TOKEN, allowedOrigins: [origin] },
  });
  const bucket = mkdtempSync(path.join(os.tmpdir(), 'team-bucket-'));
  buckets.push(bucket);
  const released = path.join(ROOT, 'mfe-public-health', 'dist', '1.0.0');
  cpSync(released, path.join(bucket, '1.0.0'), { recursive: true });
  await deployment.startRemote(bucket, bucketPort);

  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${site}${route}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const { version: base } = await api('GET', '/_deploy/manifest');
  const live = await api('PUT', '/_deploy/remotes/public_health', {
    base,
    entry: `${origin}/1.0.0/remoteEntry.js`,
    version: '1.0.0',
    serverIntegrity: sha256Integrity(readFileSync(path.join(released, 'server', 'pages.js'))),
    reason: 'released',
  });
  expect(live.to, JSON.stringify(live)).toEqual(expect.objectContaining({ version: '1.0.0' }));

  return {
    site,
    origin,
    bucket,
    manifest: () => deployment.storedManifest(),
    history: async () => (await api('GET', '/_deploy/history')).history as unknown[],
    /** The team's deploy, uploading to the bucket as a bucket sync would. */
    deploy: (workspace: string, ...args: string[]) =>
      teamCommand(
        workspace,
        {
          DEPLOY_API: site,
          DEPLOY_TOKEN: TOKEN,
          DEPLOY_BY: 'public-health-ci',
          REMOTE_PUBLIC_HEALTH_URL: origin,
          DEPLOY_UPLOAD: `cp -R -t ${JSON.stringify(bucket)}`,
        },
        ...args,
      ),
  };
}

/** Changes the M & E Tools heading in a workspace's sources. */
function changeHeading(workspace: string, to: string): void {
  const file = path.join(workspace, 'src', 'content', 'mande-tools.ts');
  const source = readFileSync(file, 'utf8');
  expect(source).toContain(HEADING);
  writeFileSync(file, source.replace(HEADING, to));
}

test.describe("a version's contents are fixed once built and deployed", () => {
  test('a version folder built before the sources changed is refused, not deployed; --rebuild builds it again while it is unpublished', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(240_000);
    const { site, origin, bucket, manifest, history, deploy } = await siteWithBucket(
      deployment,
      3400,
      3401,
    );
    const before = await manifest();

    // The team builds 1.1.0, then changes a heading and deploys without bumping the version.
    const work = await buildPublicHealthNext('version-fixed-stale');
    changeHeading(work, 'Tools we build, configure and run');
    const refused = deploy(work, '--reason', 'heading');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      "deploy: mfe-public-health 1.1.0 was built from other sources than the workspace holds now; a version's contents are fixed once built: bump the version (npm version patch -w mfe-public-health) and deploy again",
    );
    expect(refused.stderr).toContain(
      `or, as 1.1.0 was never published at ${origin}, rebuild it: npm run deploy -w mfe-public-health -- --rebuild`,
    );
    expect(refused.stdout).not.toContain('deployed');
    // Nothing was uploaded, and the live site is as it was.
    expect(existsSync(path.join(bucket, '1.1.0'))).toBe(false);
    expect(await manifest()).toBe(before);
    expect(await history()).toHaveLength(1);

    // Never published, so the team may build 1.1.0 again from what the workspace holds now.
    const rebuilt = deploy(work, '--rebuild', '--reason', 'heading');
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toContain('building public_health 1.1.0');
    expect(rebuilt.stdout).toContain(
      `deployed public_health: 1.0.0 (${origin}/1.0.0/remoteEntry.js) -> 1.1.0`,
    );
    await page.goto(`${site}/public-health/MandE-tools`);
    await ready(page);
    await expect(
      page.getByRole('heading', { name: 'Tools we build, configure and run' }),
    ).toBeVisible();

    // Once published it is fixed: it is not built again.
    const published = await manifest();
    const again = deploy(work, '--rebuild');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(
      `deploy: mfe-public-health 1.1.0 was already published at ${origin}, so it cannot be rebuilt; a version's contents are fixed once published: bump the version (npm version patch -w mfe-public-health) and deploy again`,
    );
    expect(await manifest()).toBe(published);
  });

  test('deploying a version the origin holds goes on when the contents are the same, and is refused when they are not', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(240_000);
    const { site, origin, bucket, manifest, history, deploy } = await siteWithBucket(
      deployment,
      3410,
      3411,
    );

    const work = await buildPublicHealthNext('version-fixed-first');
    const first = deploy(work, '--reason', 'Field training page');
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('-> 1.1.0');
    const uploaded = fingerprint(path.join(bucket, '1.1.0'));

    // The same build again (a retried CI job): the origin holds these very contents, so it goes on.
    const same = deploy(work, '--reason', 'retry');
    expect(same.stderr).toBe('');
    expect(same.status).toBe(0);
    expect(same.stdout).toContain(
      `deployed public_health: 1.1.0 (${origin}/1.1.0/remoteEntry.js) -> 1.1.0 (${origin}/1.1.0/remoteEntry.js)`,
    );
    expect(fingerprint(path.join(bucket, '1.1.0'))).toBe(uploaded);
    const live = await manifest();
    const changes = (await history()).length;

    // A colleague's clone at the same version with another heading builds 1.1.0 afresh: other
    // contents than the origin's 1.1.0, refused before the upload.
    const other = cloneTeamWorkspace(work, 'version-fixed-second');
    changeHeading(other, 'Tools we build, configure and run');
    const refused = deploy(other, '--reason', 'heading');
    expect(refused.stdout).toContain('building public_health 1.1.0');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `deploy: mfe-public-health 1\\.1\\.0 was already published at ${origin} with other contents than dist/1\\.1\\.0 \\(\\d+ files? differs?: .*\\); a version's contents are fixed once published: bump the version \\(npm version patch -w mfe-public-health\\) and deploy again`,
      ),
    );
    expect(fingerprint(path.join(bucket, '1.1.0'))).toBe(uploaded);
    expect(await manifest()).toBe(live);
    expect(await history()).toHaveLength(changes);
    await page.goto(`${site}/public-health/MandE-tools`);
    await ready(page);
    await expect(page.getByRole('heading', { name: HEADING })).toBeVisible();
  });
});
