import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { freshDatabase } from '../support/database';
import { ROOT } from '../support/deployment';
import { ready } from '../support/ready';

/**
 * A new page group in one command, as a team would make it: in a fresh clone of the repository
 * (installed from npm's cache), `npm run new-group` writes the group; its own tests pass, it
 * builds, and the team's deploy command puts its sample page on a site server started from the
 * clone. Nothing but the generator's files changes in the clone. Everything it starts listens on
 * ports 3470-3479: the site on 3470, the group's static host on 3471.
 */
const SITE_PORT = 3470;
const HOST_PORT = 3471;
const SITE = `http://localhost:${SITE_PORT}`;
const HOST = `http://localhost:${HOST_PORT}`;
const TOKEN = 'new-group-deploy-token-0123456789';
const NAME = 'garden-care';
const PREFIX = '/gardens';
const FOLDER = `mfe-${NAME}`;

const children: ChildProcess[] = [];
let work = '';

test.afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a command in `cwd` to its end; a failure shows what it printed. */
function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} ended with ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** Starts a long-running process from the clone and waits until `readyUrl` answers. */
async function start(cwd: string, args: string[], env: Record<string, string>, readyUrl: string) {
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (log += String(chunk)));
  child.stderr.on('data', (chunk) => (log += String(chunk)));
  children.push(child);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args[0]} stopped: ${log}`);
    try {
      await fetch(readyUrl);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${args[0]} did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

test('npm run new-group: a clone gets a group whose tests pass and whose page goes live with the team’s deploy', async ({
  page,
}) => {
  // 2.3 minutes here on two busy cores, most of it the clone's install (nearly three minutes when
  // npm's cache is cold), then the shell's build (36 s) and the group's (8 s).
  test.setTimeout(480_000);
  work = mkdtempSync(path.join(os.tmpdir(), 'new-group-e2e-'));
  const clone = path.join(work, 'site');
  run(work, 'git', ['clone', '--quiet', ROOT, clone]);
  // From npm's cache; `--offline` would refuse the `node` package's installer, which npm fetches
  // at install time and does not keep.
  const install = ['install', '--prefer-offline', '--no-audit', '--no-fund'];
  run(clone, 'npm', install);

  const gitStatus = () =>
    run(clone, 'git', ['status', '--porcelain', '--untracked-files=all'])
      .stdout.split('\n')
      .filter(Boolean);
  const before = gitStatus();

  const made = run(clone, 'npm', [
    ...['run', '--silent', 'new-group', '--', '--name', NAME, '--prefix', PREFIX],
  ]);
  expect(made.stdout).toContain(`npm run deploy -w ${FOLDER}`);
  // What the generator changed: the site table and the new folder, nothing else.
  const changed = gitStatus().filter((line) => !before.includes(line));
  expect(changed).toContain(' M shared/contracts/site.json');
  expect(changed.filter((line) => !line.startsWith(`?? ${FOLDER}/`))).toEqual([
    ' M shared/contracts/site.json',
  ]);
  // Its overview at the prefix, with a content file and a picture of its own.
  expect(changed).toContain(`?? ${FOLDER}/src/content/gardens.ts`);
  expect(changed).toContain(`?? ${FOLDER}/src/art/gardens.tsx`);

  // The team's next steps, as the command prints them.
  run(clone, 'npm', install);
  const tested = run(clone, 'npm', ['test', '-w', FOLDER]);
  expect(stripVTControlCharacters(tested.stderr)).toMatch(/Tests:\s+(\d+) passed, \1 total/);
  run(clone, 'npm', ['run', 'build', '-w', FOLDER]);
  run(clone, 'npm', ['run', 'build', '-w', 'shell']);

  // A site server from the clone with an empty manifest, and the group's static host.
  const deployDir = path.join(work, 'deploy');
  mkdirSync(deployDir);
  writeFileSync(path.join(deployDir, 'remotes.json'), '{"schemaVersion":1,"remotes":[]}\n');
  await start(
    clone,
    [path.join(clone, 'shell', 'server', 'main.ts')],
    {
      PORT: String(SITE_PORT),
      SITE_URL: SITE,
      DEPLOY_DIR: deployDir,
      DATABASE_URL: await freshDatabase('new_group'),
      DEPLOY_TOKEN: TOKEN,
      DEPLOY_ALLOWED_ORIGINS: HOST,
      MAIL_SERVICE_URL: 'http://127.0.0.1:3479',
      RENDER_WORKERS: '1',
      LOG_LEVEL: 'warn',
    },
    `${SITE}/favicon.svg`,
  );
  await start(
    clone,
    [
      path.join(clone, 'scripts', 'serve-remote.ts'),
      '--dist',
      path.join(clone, FOLDER, 'dist'),
      '--port',
      String(HOST_PORT),
    ],
    {},
    `${HOST}/`,
  );
  const overview = `${SITE}${PREFIX}`;
  expect((await fetch(overview)).status).toBe(404);

  const deployed = run(clone, 'npm', ['run', '--silent', 'deploy', '-w', FOLDER], {
    DEPLOY_API: SITE,
    DEPLOY_TOKEN: TOKEN,
    DEPLOY_BY: 'garden-care-ci',
    REMOTE_GARDEN_CARE_URL: HOST,
  });
  expect(deployed.stdout).toContain('deployed garden_care');

  const response = await fetch(overview);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('<h1');
  expect(html).toMatch(/<h1[^>]*>Garden Care<\/h1>/);
  expect(html).toContain('Talk to our Garden Care team');
  // Its own picture, not the home page's.
  expect(html).toMatch(/<div class="hero__art"><svg class="art"/);
  expect(html).not.toContain('M380 66a22 22 0 0 1 42-8');
  // The services page lists it, leading to its overview.
  const services = await (await fetch(`${SITE}/services`)).text();
  expect(services).toMatch(new RegExp(`<a href="${PREFIX}"[^>]*>Garden Care</a>`));

  // Every menu lists its page from the first deploy: the desktop services menu under its heading,
  // and the phone's menu when the group is opened.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(SITE);
  await ready(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Services' }).click();
  const entry = nav.getByRole('link', { name: 'Garden Care overview' });
  await expect(entry).toBeVisible();
  await expect(entry).toHaveAttribute('href', PREFIX);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(SITE);
  await ready(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await nav.getByRole('button', { name: 'Services' }).click();
  await nav.getByRole('button', { name: 'Garden Care' }).click();
  await expect(nav.getByRole('link', { name: 'Garden Care overview' })).toBeVisible();
});
