/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HistoryEntry } from '@site/contracts/deploy-api';
import type { Site } from '../site';
import {
  Bucket,
  OPERATOR,
  base,
  call,
  deployDirWith,
  groupToken,
  startSite,
} from './deploy-credentials-helpers';

/**
 * Teams deploying side by side on a real site (the real shell build, real render processes,
 * groups `alpha` and `beta` served by a real HTTP server that can be made to hang), through the
 * deploy API called in-process: no team waits for another's checks, a group's token reads only its
 * own group, and a rollback after a canary goes back to what every visitor last had. Its control
 * plane is a database of the run's PostgreSQL; the bucket listens on a port the system has free.
 */
jest.setTimeout(60_000);

/**
 * The checks' time limit of this site: short, so that a hung check is refused soon, and below the
 * time limit of one fetch, so that it is the checks' limit that ends a hung one.
 */
const CHECK_LIMIT_MS = 6000;
const FETCH_LIMIT_MS = 20_000;

let work: string;
let bucket: Bucket;
let site: Site;
let alpha: string;
let beta: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'site-teams-'));
  bucket = new Bucket(path.join(work, 'bucket'));
  await bucket.listen();
  for (const group of ['alpha', 'beta']) {
    for (const version of ['1.0.0', '1.0.1', '1.0.2', '2.0.0']) bucket.version(group, version);
  }
  const deployDir = deployDirWith(path.join(work, 'deploy'), [
    bucket.remote('alpha'),
    bucket.remote('beta'),
  ]);
  site = await startSite(deployDir, bucket.origin, undefined, {
    checkTimeoutMs: CHECK_LIMIT_MS,
    fetchTimeoutMs: FETCH_LIMIT_MS,
  });
  alpha = await groupToken(site, 'alpha');
  beta = await groupToken(site, 'beta');
}, 180_000);

afterAll(async () => {
  await site?.close();
  await bucket?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A deploy of `group` at `version` from the bucket, with `token`, against the live manifest. */
async function deploy(group: string, version: string, token: string, extra: object = {}) {
  return call(site, 'PUT', `/remotes/${group}`, token, {
    base: await base(site),
    entry: bucket.entry(group, version),
    version,
    ...extra,
  });
}

async function rollback(group: string, token: string, extra: object = {}) {
  return call(site, 'POST', `/remotes/${group}/rollback`, token, {
    base: await base(site),
    ...extra,
  });
}

/** The version of `group` every visitor gets now, and its canary's, if one runs. */
async function live(group: string): Promise<{ stable?: string; canary?: string }> {
  const { manifest } = (await call(site, 'GET', '/manifest', OPERATOR)).body as {
    manifest: { remotes: { name: string; version: string }[]; canaries?: typeof manifest.remotes };
  };
  return {
    stable: manifest.remotes.find((r) => r.name === group)?.version,
    canary: manifest.canaries?.find((c) => c.name === group)?.version,
  };
}

const history = async (group: string) =>
  (await call(site, 'GET', `/history?remote=${group}`, OPERATOR)).body.history as HistoryEntry[];

describe('teams never wait for each other', () => {
  test("a group's checks that hang hold up no other team, and are refused at their time limit", async () => {
    bucket.hold('/alpha/2.0.0/');
    let alphaAnswered = false;
    const startedAt = performance.now();
    const slow = deploy('alpha', '2.0.0', alpha).finally(() => {
      alphaAnswered = true;
    });
    // alpha's checks have begun: its host has its request and gives no answer.
    await bucket.holdsARequest();

    const betaAt = performance.now();
    const fast = await deploy('beta', '1.0.1', beta);
    const betaMs = performance.now() - betaAt;
    expect(fast.status).toBe(200);
    expect(fast.body).toMatchObject({ remote: 'beta', to: { version: '1.0.1' } });
    expect(alphaAnswered).toBe(false);
    expect(await live('beta')).toEqual({ stable: '1.0.1' });
    expect((await site.page('/beta/page')).status).toBe(200);

    const refused = await slow;
    console.log(
      `teams: beta live in ${betaMs.toFixed(0)} ms while alpha's checks hung; alpha refused after ${(performance.now() - startedAt).toFixed(0)} ms (limit ${CHECK_LIMIT_MS} ms)`,
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error: 'check_timeout',
      message:
        'the checks of alpha 2.0.0 took longer than the limit of 6 s (DEPLOY_CHECK_TIMEOUT_S) and were stopped; nothing was changed',
    });
    // Nothing of it went live, and the history does not name it.
    expect(await live('alpha')).toEqual({ stable: '1.0.0' });
    expect((await history('alpha')).map((e) => e.to.version)).not.toContain('2.0.0');
    bucket.release('/alpha/2.0.0/');
  });

  test("a deploy checked while another group went live goes live on top of it, keeping that group's", async () => {
    bucket.hold('/alpha/1.0.1/');
    const alphaDeploy = deploy('alpha', '1.0.1', alpha);
    await bucket.holdsARequest();
    const betaDeploy = await deploy('beta', '1.0.2', beta);
    expect(betaDeploy.status).toBe(200);
    // alpha's host answers again: its checks end, and its commit is built on beta's change.
    bucket.release('/alpha/1.0.1/');
    const done = await alphaDeploy;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ from: { version: '1.0.0' }, to: { version: '1.0.1' } });
    expect(await live('alpha')).toEqual({ stable: '1.0.1' });
    expect(await live('beta')).toEqual({ stable: '1.0.2' });
    expect((await site.page('/alpha/page')).status).toBe(200);
  });
});

describe("a group's token reads its own group", () => {
  test('its history, its canaries and its manifest; the operator reads every group', async () => {
    const started = await deploy('beta', '2.0.0', beta, { canary: 10 });
    expect(started.status).toBe(200);

    const own = (await call(site, 'GET', '/history', alpha)).body.history as HistoryEntry[];
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own.map((e) => e.remote))).toEqual(new Set(['alpha']));
    const all = (await call(site, 'GET', '/history', OPERATOR)).body.history as HistoryEntry[];
    expect(new Set(all.map((e) => e.remote))).toEqual(new Set(['alpha', 'beta']));

    const other = await call(site, 'GET', '/history?remote=beta', alpha);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('group_not_allowed');
    expect(other.body.message).toMatch(
      /^the deploy token group:alpha#\w+ reads only alpha, not beta$/,
    );
    expect((await call(site, 'GET', '/history?remote=beta', beta)).status).toBe(200);

    const canariesOf = async (token: string) =>
      ((await call(site, 'GET', '/canaries', token)).body.canaries as { group: string }[]).map(
        (c) => c.group,
      );
    expect(await canariesOf(alpha)).toEqual([]);
    expect(await canariesOf(beta)).toEqual(['beta']);
    expect(await canariesOf(OPERATOR)).toEqual(['beta']);

    const manifestOf = async (token: string) =>
      (await call(site, 'GET', '/manifest', token)).body as {
        version: string;
        manifest: { canaries?: unknown[]; remotes: unknown[] };
      };
    const seenByAlpha = await manifestOf(alpha);
    expect(seenByAlpha.manifest.canaries).toBeUndefined();
    expect(seenByAlpha.manifest.remotes).toHaveLength(2);
    expect((await manifestOf(beta)).manifest.canaries).toHaveLength(1);
    expect(seenByAlpha.version).toBe((await manifestOf(OPERATOR)).version);

    // A preview of another group is refused as any change of it is.
    const preview = await deploy('beta', '1.0.0', alpha, { preview: true });
    expect(preview.status).toBe(403);
    expect(preview.body.error).toBe('group_not_allowed');

    expect((await rollback('beta', beta)).status).toBe(200);
    expect(await live('beta')).toEqual({ stable: '1.0.2' });
  });
});

describe('rollback goes back to what every visitor last had', () => {
  test('after a canary rolled back by its team, never to the rejected canary', async () => {
    expect((await deploy('alpha', '1.0.0', alpha)).status).toBe(200);
    expect((await deploy('alpha', '1.0.1', alpha)).status).toBe(200);
    expect((await deploy('alpha', '1.0.2', alpha, { canary: 10 })).status).toBe(200);
    expect(await live('alpha')).toEqual({ stable: '1.0.1', canary: '1.0.2' });

    const ended = await rollback('alpha', alpha);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({
      action: 'rollback',
      from: { version: '1.0.2' },
      to: { version: '1.0.1' },
    });
    expect(await live('alpha')).toEqual({ stable: '1.0.1' });

    const back = await rollback('alpha', alpha);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      action: 'rollback',
      from: { version: '1.0.1' },
      to: { version: '1.0.0' },
    });
    // The history says what each one did.
    expect(ended.body.reason).toBe('end the canary of 1.0.2; 1.0.1 stays live for everyone');
    expect(back.body.reason).toBe('roll back to 1.0.0, the version live for everyone before 1.0.1');
    expect(await live('alpha')).toEqual({ stable: '1.0.0' });
  });

  test('after a canary rolled back by the site, and after one promoted', async () => {
    // alpha is at 1.0.0, live for everyone after 1.0.1.
    expect((await deploy('alpha', '1.0.2', alpha, { canary: 10 })).status).toBe(200);
    const judged = await site.app.deployer.rollBackCanaries(
      [{ name: 'alpha', version: '1.0.2' }],
      'automatic rollback: failing',
    );
    expect(judged?.[0]).toMatchObject({ by: 'site', from: { version: '1.0.2' } });
    const back = await rollback('alpha', alpha);
    expect(back.body).toMatchObject({ from: { version: '1.0.0' }, to: { version: '1.0.1' } });
    expect(await live('alpha')).toEqual({ stable: '1.0.1' });

    // Promoted (the canary's version deployed): it is what everyone has; before it, 1.0.1.
    expect((await deploy('alpha', '2.0.0', alpha, { canary: 10 })).status).toBe(200);
    expect((await deploy('alpha', '2.0.0', alpha)).status).toBe(200);
    const afterPromotion = await rollback('alpha', alpha);
    expect(afterPromotion.body).toMatchObject({
      from: { version: '2.0.0' },
      to: { version: '1.0.1' },
    });

    // The history says each step: canaries started and ended, and what everyone had.
    const steps = (await history('alpha'))
      .slice(-6)
      .map((e) => `${e.action} ${e.from?.version} -> ${e.to.version} by ${e.by}`);
    expect(steps).toEqual([
      'canary 1.0.0 -> 1.0.2 by unknown',
      'rollback 1.0.2 -> 1.0.0 by site',
      'rollback 1.0.0 -> 1.0.1 by unknown',
      'canary 1.0.1 -> 2.0.0 by unknown',
      'deploy 1.0.1 -> 2.0.0 by unknown',
      'rollback 2.0.0 -> 1.0.1 by unknown',
    ]);
  });
});
