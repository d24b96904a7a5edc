import { spawn } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import S3rver from 's3rver';
import { SITE_REMOTES } from '@site/contracts/site';
import { ROOT, test } from '../support/deployment';
import { ready } from '../support/ready';
import { buildPublicHealthNext } from '../support/team-build';
import { groupToken } from '../support/team-commands';

/**
 * A team ships to a real bucket: `npm run deploy` uploads the version folder to an S3-compatible
 * server (s3rver, on a port of its own), which then serves the group's files to the site and to
 * visitors, as a bucket behind a CDN does. The site runs on port 3164.
 */
const TOKEN = 'test-deploy-token-bucket-0123456789';
const BUCKET = 'site-cdn';
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader></CORSRule></CORSConfiguration>`;

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The team's `npm run deploy -w <group>` (scripts/deploy.ts) in `workspace`, as a process of its
 * own; `whileRunning` may stop it. Asynchronous: the bucket answers from this process.
 */
function deploy(
  workspace: string,
  env: Record<string, string>,
  whileRunning: (kill: () => void) => void = () => {},
): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', 'deploy.ts'), '--reason', 'From the bucket'],
    { cwd: workspace, env: { ...process.env, ...env } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  whileRunning(() => child.kill('SIGKILL'));
  return new Promise((resolve) =>
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr })),
  );
}

test('a deploy uploads the version folder to a bucket, resumes after it was killed part way, and the page is served from the bucket', async ({
  page,
  deployment,
}) => {
  test.setTimeout(180_000);
  const store = mkdtempSync(path.join(os.tmpdir(), 'site-bucket-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: store,
    configureBuckets: [{ name: BUCKET, configs: [CORS] }],
  });
  const { port } = await s3.run();
  try {
    const endpoint = `http://127.0.0.1:${port}`;
    const origin = `${endpoint}/${BUCKET}/groups/public-health`;
    const site = await deployment.startSite(3164, {
      deploy: {
        token: TOKEN,
        allowedOrigins: [...SITE_REMOTES.map((r) => `http://localhost:${r.port}`), endpoint],
      },
    });
    await deployment.writeManifest({});
    const before = await deployment.storedManifest();

    const work = await buildPublicHealthNext('bucket-public-health');
    const env = {
      DEPLOY_API: site,
      DEPLOY_TOKEN: groupToken(site, TOKEN, 'public_health'),
      DEPLOY_BUCKET: `s3://${BUCKET}/groups/public-health`,
      DEPLOY_S3_ENDPOINT: endpoint,
      REMOTE_PUBLIC_HEALTH_URL: origin,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    };

    // The first deploy is killed once the bucket has received a few of its files.
    let stored = 0;
    const killed = await deploy(work, env, (kill) => {
      // s3rver is an EventEmitter (a Koa app): it reports each object it stores.
      (s3 as unknown as EventEmitter).on('event', () => {
        stored += 1;
        if (stored === 4) kill();
      });
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).toMatch(
      /uploading (\d+) of \1 files \(\d+ KB\) to s3:\/\/site-cdn\/groups\/public-health\/1\.1\.0\//,
    );
    // Nothing was published: the live manifest is byte for byte as it was, the new page unknown.
    expect(await deployment.storedManifest()).toBe(before);
    expect((await fetch(`${site}/public-health/field-training`)).status).toBe(404);

    // Deployed again: what arrived is kept, the rest uploaded, then published.
    const resumed = await deploy(work, env);
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    const [, sent, total, kept] =
      /uploading (\d+) of (\d+) files \(\d+ KB\) to s3:\/\/[^ ]+; (\d+) already there with the same bytes/.exec(
        resumed.stdout,
      ) ?? [];
    expect(Number(kept)).toBeGreaterThanOrEqual(3);
    expect(Number(sent) + Number(kept)).toBe(Number(total));
    expect(resumed.stdout).toContain(`-> 1.1.0 (${origin}/1.1.0/remoteEntry.js)`);

    // The bucket serves the files as a CDN would hand them on.
    const entry = JSON.parse((await deployment.storedManifest())!).remotes.find(
      (r: { name: string }) => r.name === 'public_health',
    );
    expect(entry.entry).toBe(`${origin}/1.1.0/remoteEntry.js`);
    const built = Object.keys(
      JSON.parse(readFileSync(path.join(work, 'dist', '1.1.0', 'build.json'), 'utf8')).files,
    );
    // A chunk with its compressed copies (small files have none).
    const chunkName = built.find((f) => /\.[0-9a-f]{10}\.js$/.test(f) && built.includes(`${f}.br`));
    const chunk = await fetch(`${origin}/1.1.0/${chunkName}`);
    expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const compressed = await fetch(`${origin}/1.1.0/${chunkName}.br`);
    expect(compressed.headers.get('content-encoding')).toBe('br');
    await Promise.all([chunk.body?.cancel(), compressed.body?.cancel()]);

    // A visitor gets the new page, its scripts from the bucket, and moves within the group.
    const fromBucket: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(origin) && r.ok()) fromBucket.push(r.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site}/public-health/field-training`);
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Field Training');
    expect(fromBucket.some((url) => url.endsWith('/1.1.0/remoteEntry.js'))).toBe(true);
    await page.getByRole('contentinfo').getByRole('link', { name: 'M & E Tools' }).click();
    await expect(
      page.getByRole('heading', { name: 'Tools we build, configure and support' }),
    ).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await s3.close();
    rmSync(store, { recursive: true, force: true });
  }
});
