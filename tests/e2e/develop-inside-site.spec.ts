import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { ROOT, endProcess, test } from '../support/deployment';
import { ready } from '../support/ready';
import { scratchClone } from '../support/scratch-clone';

/**
 * A team develops its group inside the real site: `npm run dev -w mfe-data` serves the whole site
 * with the data group built from its sources on every save, rendered on the server and in the
 * browser, every other group as the site it composes has it live; that site is read, never
 * changed. Against the site the browser tests run (port 3000) from a scratch copy, on port 3186;
 * against a second local site standing in for production (3188, its public-health host 3189) on
 * port 3187.
 */

const PAGE = '/services/business-intelligence';
const HEADING = 'One version of the numbers';

/** `npm run dev -w mfe-data -- <args>` in `checkout`, its output kept; resolves once it serves. */
async function develop(
  checkout: string,
  ...args: string[]
): Promise<{ child: ChildProcess; output: () => string; site: string }> {
  const child = spawn('npm', ['run', 'dev', '-w', 'mfe-data', '--', ...args], {
    cwd: checkout,
    // Its own process group: npm, the command and its site server stop together.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const site = /Development site: (http:\/\/localhost:\d+)\//.exec(output)?.[1];
    if (site) return { child, output: () => output, site };
    if (child.exitCode !== null) throw new Error(`npm run dev stopped:\n${output}`);
    if (Date.now() > deadline)
      throw new Error(`npm run dev did not serve in 2 minutes:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops a development run (its whole process group) and waits for it. */
async function stop(child: ChildProcess): Promise<void> {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // Gone already.
  }
  await endProcess(child);
}

/** The second-level headings of a page's HTML. */
const headings = (html: string) => [...html.matchAll(/<h2\b[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);

test('a saved change shows in the composed page, server HTML and open page, within seconds; the rest of the site is the running one', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const work = mkdtempSync(path.join(os.tmpdir(), 'site-develop-'));
  const running = 'http://localhost:3000';
  const manifestBefore = await (await fetch(`${running}/remotes.json`)).text();
  let run: Awaited<ReturnType<typeof develop>> | undefined;
  try {
    const clone = scratchClone(ROOT, path.join(work, 'site'));
    run = await develop(clone, '--port', '3186');
    const { site } = run;
    expect(site).toBe('http://localhost:3186');
    expect(run.output()).toContain(
      'dev: data from mfe-data, inside the site npm start runs at http://localhost:3000',
    );

    await page.goto(`${site}${PAGE}`);
    await ready(page);
    await expect(page.getByRole('heading', { name: HEADING, exact: true })).toBeVisible();
    // The page is composed as production composes it: the site's navbar and footer around it.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();

    // The team saves a change to a content file.
    const content = path.join(clone, 'mfe-data', 'src', 'content', 'business-intelligence.ts');
    const edited = 'One version of the numbers, kept honest';
    const savedAt = Date.now();
    writeFileSync(content, readFileSync(content, 'utf8').replace(`'${HEADING}'`, `'${edited}'`));

    // The open page reloads with it, rendered on the server: no click, no restart.
    await expect(page.getByRole('heading', { name: edited, exact: true })).toBeVisible({
      timeout: 15_000,
    });
    const shownAfter = Date.now() - savedAt;
    const html = await (await fetch(`${site}${PAGE}`)).text();
    expect(headings(html)).toContain(edited);
    console.log(`save to updated page: ${shownAfter} ms`);
    expect(run.output()).toMatch(/dev: 1\.0\.0-dev\.\d+ live \d+\.\d s after the save/);

    // The rest of the site is the running site's: its navbar, and another group's page as it is live.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    const other = await fetch(`${site}/services/custom-dev`);
    expect(other.status).toBe(200);
    const otherHtml = await other.text();
    expect(otherHtml).toMatch(/<h1\b[^>]*>Custom Development<\/h1>/);
    expect(otherHtml).toContain('http://localhost:3001/1.0.0/remoteEntry.js');
    // A build that fails keeps the last one that worked, and says why.
    writeFileSync(content, 'export default {');
    await expect.poll(() => run!.output(), { timeout: 15_000 }).toContain('dev: the build failed');
    expect((await fetch(`${site}${PAGE}`)).status).toBe(200);

    // The running site was read, never changed.
    expect(await (await fetch(`${running}/remotes.json`)).text()).toBe(manifestBefore);
  } finally {
    if (run) await stop(run.child);
    rmSync(work, { recursive: true, force: true });
  }
});

test('--site composes another site (read-only) with the local group in place, server render included', async ({
  deployment,
}) => {
  test.setTimeout(180_000);
  // A second local site stands in for production: public health served from a host of its own.
  await deployment.startRemote(path.join(ROOT, 'mfe-public-health', 'dist'), 3189);
  const production = await deployment.startSite(3188);
  await deployment.writeManifest({ urls: { public_health: 'http://localhost:3189' } });
  const manifestBefore = await (await fetch(`${production}/remotes.json`)).text();

  // Nothing answers at a site that is named wrongly: said plainly, nothing started.
  const wrong = spawn(
    'npm',
    ['run', 'dev', '-w', 'mfe-data', '--', '--site', 'http://localhost:3199'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let wrongOutput = '';
  wrong.stderr.on('data', (chunk: Buffer) => (wrongOutput += chunk.toString()));
  const wrongCode = await new Promise((resolve) => wrong.on('close', resolve));
  expect(wrongCode).toBe(1);
  expect(wrongOutput).toContain('dev: http://localhost:3199 could not be reached');
  expect(wrongOutput).toContain('nothing was started');

  const run = await develop(ROOT, '--site', production, '--port', '3187');
  try {
    expect(run.output()).toContain(`inside the site at ${production} (read, never changed)`);
    const health = await fetch(`${run.site}/public-health/MandE-tools`);
    expect(health.status).toBe(200);
    const healthHtml = await health.text();
    expect(healthHtml).toContain('Tools we build and configure');
    // Production's public health, from production's host.
    expect(healthHtml).toContain('http://localhost:3189/1.0.0/remoteEntry.js');
    // The local data group, from its development build, rendered on the server.
    const data = await (await fetch(`${run.site}${PAGE}`)).text();
    expect(headings(data)).toContain(HEADING);
    expect(data).toMatch(/http:\/\/localhost:\d+\/1\.0\.0-dev\.1\/remoteEntry\.js/);
    expect(await (await fetch(`${production}/remotes.json`)).text()).toBe(manifestBefore);
  } finally {
    await stop(run.child);
  }
});
