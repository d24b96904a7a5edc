import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { expect, test } from '@playwright/test';
import { ROOT } from '../support/deployment';
import { scratchClone } from '../support/scratch-clone';

/**
 * `npm run start:cluster` as an operator runs it, in a fresh clone: PostgreSQL, three site servers,
 * two mail-services and nginx, all supervised. Broken on purpose: PostgreSQL SIGKILLed is back by
 * itself and a team's deploy goes live within 10 s of the kill; nginx's master SIGKILLed leaves no
 * worker holding the port and the site answers again; a site server stopped (SIGSTOP) is named by
 * the watch and again when it answers; `npm run status` sees every part ready.
 *
 * Ports: nginx 3530, the groups 3060-3063 (the clone's site table is moved there), and the cluster
 * run's own: site servers 3011-3013, mail-services 3021-3022, PostgreSQL 3040.
 */
const PORT = 3530;
const SITE = `http://localhost:${PORT}`;
const GROUP_PORTS = [3060, 3061, 3062, 3063];

let work = '';
let clone = '';
let cluster: ChildProcess | undefined;
const lines: string[] = [];

/** Every process whose command line names the clone: the run's own and those in groups of their own. */
function processesOf(dir: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (command.includes(dir)) found.push({ pid: Number(entry), command });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('npm run start:cluster', {
      body: lines.join('\n'),
      contentType: 'text/plain',
    });
  }
  if (cluster?.pid !== undefined) kill(-cluster.pid, 'SIGINT');
  await expect
    .poll(() => processesOf(clone).length, { timeout: 20_000 })
    .toBe(0)
    .catch(() => undefined);
  for (const { pid } of processesOf(clone)) kill(pid, 'SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a command in the clone to its end: its exit code and what it printed. */
function run(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; output: string }> {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
  return new Promise((resolve) => child.on('exit', (status) => resolve({ status, output })));
}

test('start:cluster supervises PostgreSQL and nginx like every part, names a hung replica, and a deploy works within 10 s of the database being killed', async () => {
  test.setTimeout(420_000);
  work = mkdtempSync(path.join(os.tmpdir(), 'start-cluster-'));
  // PostgreSQL runs as its own user and keeps its data in the clone: it must reach the folder.
  chmodSync(work, 0o755);
  clone = scratchClone(ROOT, path.join(work, 'site'));
  const table = path.join(clone, 'shared', 'contracts', 'site.json');
  const site = JSON.parse(readFileSync(table, 'utf8')) as { remotes: { port: number }[] };
  site.remotes.forEach((remote, i) => (remote.port = GROUP_PORTS[i]!));
  writeFileSync(table, `${JSON.stringify(site, null, 2)}\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT) };
  for (const name of ['DEPLOY_TOKEN', 'DEPLOY_DIR', 'DATABASE_URL', 'METRICS_TOKEN', 'LOG_LEVEL']) {
    delete env[name];
  }
  cluster = spawn('npm', ['run', 'start:cluster'], {
    cwd: clone,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [cluster.stdout!, cluster.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (l) => lines.push(l));
  }
  const line = (pattern: RegExp, timeout = 15_000) =>
    expect
      .poll(() => lines.find((l) => pattern.test(l)) ?? null, {
        timeout,
        message: `a line ${pattern}`,
      })
      .not.toBeNull();
  await line(/^The site is at /, 180_000);
  expect(lines).toContain(
    `The site is at ${SITE}/ (3 site servers behind nginx) (Ctrl-C stops everything)`,
  );
  expect((await fetch(`${SITE}/about`)).status).toBe(200);

  // Every part ready, as the operator's screen says.
  const ready = await run(clone, 'npm', ['run', '--silent', 'status', '--', '--site', SITE]);
  expect(ready.output).toMatch(/^Site servers \(3\):$/m);
  for (const n of [1, 2, 3]) {
    expect(ready.output).toContain(`http://localhost:${3010 + n} (site-${n})  ready, manifest `);
  }
  expect(ready.output).toMatch(/^Mail-services \(2\):$/m);
  expect(ready.status, ready.output).toBe(0);

  // The public-health team's next version, built while the run goes on.
  const pkgFile = path.join(clone, 'mfe-public-health', 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
  pkg.version = '1.0.1';
  writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  const built = await run(clone, 'npm', ['run', 'build', '-w', 'mfe-public-health']);
  expect(built.status, built.output).toBe(0);

  // PostgreSQL killed: started again by the run, and a team's deploy is live within 10 s.
  const postgres = processesOf(clone).find((p) => / -D \S*deploy\/\.postgres/.test(p.command));
  expect(postgres, 'the PostgreSQL server of the run').toBeDefined();
  const killedAt = Date.now();
  kill(postgres!.pid, 'SIGKILL');
  await line(/^\[postgres\] stopped \(SIGKILL\); restarting in /);
  let deployed = { status: null as number | null, output: '' };
  for (let i = 0; i < 20 && deployed.status !== 0; i++) {
    deployed = await run(clone, 'npm', ['run', '--silent', 'deploy', '-w', 'mfe-public-health'], {
      DEPLOY_API: SITE,
      DEPLOY_BY: 'public-health-ci',
    });
  }
  const tookMs = Date.now() - killedAt;
  expect(deployed.status, deployed.output).toBe(0);
  expect(deployed.output).toMatch(/deployed public_health: 1\.0\.0 .* -> 1\.0\.1 /);
  console.log(`a deploy live ${tookMs} ms after PostgreSQL was killed`);
  expect(tookMs).toBeLessThan(10_000);
  await line(/^\[postgres\] started again/);

  // nginx's master killed: its workers go with it, the new one takes the port.
  const master = processesOf(clone).find((p) => p.command.startsWith('nginx: master'));
  expect(master, 'the nginx master of the run').toBeDefined();
  kill(master!.pid, 'SIGKILL');
  await line(/^\[nginx\] stopped \(SIGKILL\); restarting in /);
  await line(/^\[nginx\] started again/);
  await expect
    .poll(
      () =>
        fetch(`${SITE}/about`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 15_000 },
    )
    .toBe(200);
  expect(lines.filter((l) => /Address already in use/.test(l))).toEqual([]);

  // A site server stopped (it hangs, it does not exit): the watch names it, and again once back.
  const replica = processesOf(clone).find(
    (p) => p.command.includes('shell/server/main.ts') && p.command.includes(clone),
  );
  expect(replica, 'a site server of the run').toBeDefined();
  const replicas = processesOf(clone).filter((p) => p.command.includes('shell/server/main.ts'));
  expect(replicas.length).toBeGreaterThanOrEqual(3);
  kill(replica!.pid, 'SIGSTOP');
  try {
    await line(/^\[watch\] site-\d has not answered within \d s: hung or stopped/);
    expect((await fetch(`${SITE}/about`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
  } finally {
    kill(replica!.pid, 'SIGCONT');
  }
  await line(/^\[watch\] site-\d answers again, after \d+ s without an answer$/);
});
