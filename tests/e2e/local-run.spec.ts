import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ROOT } from '../support/deployment';
import { databaseDir } from '../../scripts/lib/local-database';
import { scratchClone } from '../support/scratch-clone';

/**
 * The local run as a new team member meets it, in a fresh clone (its packages linked from this
 * checkout, its builds copied): `npm start` prints the site's address once the site answers, in
 * readable lines, with one static host for every group; a group made with `npm run new-group`
 * while it runs is built and deployed and its page served, without a restart; Ctrl-C (SIGINT to
 * the whole process group, as a terminal sends it) stops every process within a few seconds.
 *
 * Everything listens away from the site the other tests use: the site on 3490, the mail-service
 * on 3491, the groups on 3050-3053 (the clone's site table is moved there) and the new one on the
 * next free port, 3054.
 */
const SITE_PORT = 3490;
const MAIL_PORT = 3491;
const GROUP_PORTS = [3050, 3051, 3052, 3053];
const NEW_PORT = 3054;
const SITE = `http://localhost:${SITE_PORT}`;

interface Proc {
  pid: number;
  rssKb: number;
  command: string;
}

/** The processes of process group `pgid` (Linux /proc), with their resident memory. */
const processGroup = (pgid: number): Proc[] => processes((fields) => Number(fields[2]) === pgid);

/** The processes whose command line names `text` (a folder of the test's). */
const processesNaming = (text: string): Proc[] =>
  processes(() => true).filter((p) => p.command.includes(text));

/** The processes whose stat fields (after the command's name) pass `keep`. */
function processes(keep: (fields: string[]) => boolean): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its closing paren.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!keep(fields)) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({
        pid: Number(entry),
        rssKb: Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0),
        command,
      });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

const summary = (procs: Proc[]) =>
  `${procs.length} processes, ${Math.round(procs.reduce((s, p) => s + p.rssKb, 0) / 1024)} MB RSS`;

let work = '';
let npmStart: ChildProcess | undefined;
/** What npm start printed, shown with a failure. */
const lines: string[] = [];

test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('npm start', { body: lines.join('\n'), contentType: 'text/plain' });
    console.log(`npm start printed:\n${lines.join('\n')}`);
  }
  lines.length = 0;
  // npm start's group, and PostgreSQL, which runs in a group of its own, its files in the clone's
  // deploy folder or (run as root from a private folder) under /var/tmp.
  const database = work ? databaseDir(path.join(work, 'site', 'deploy')).dir : '';
  const left = [
    ...(npmStart?.pid === undefined ? [] : processGroup(npmStart.pid)),
    ...(database ? processesNaming(database) : []),
  ];
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  if (database) rmSync(database, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a command in the clone to its end; a failure shows what it printed. */
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

test('npm start in a fresh clone: the address once the site answers, one static host, a new group live without a restart, Ctrl-C stops everything', async () => {
  // About a minute here: the new group's build (20 s) and the site's start dominate.
  test.setTimeout(300_000);
  work = mkdtempSync(path.join(os.tmpdir(), 'local-run-'));
  const clone = scratchClone(ROOT, path.join(work, 'site'));
  const table = path.join(clone, 'shared', 'contracts', 'site.json');
  const site = JSON.parse(readFileSync(table, 'utf8')) as { remotes: { port: number }[] };
  site.remotes.forEach((remote, i) => (remote.port = GROUP_PORTS[i]!));
  writeFileSync(table, `${JSON.stringify(site, null, 2)}\n`);

  // Its own process group, as a terminal's foreground job: Ctrl-C reaches every process in it.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(SITE_PORT),
    MAIL_SERVICE_PORT: String(MAIL_PORT),
  };
  for (const name of [
    'DEPLOY_TOKEN',
    'DEPLOY_DIR',
    'DEPLOY_ALLOWED_ORIGINS',
    'DATA_DIR',
    'MAILBOX_DIR',
    'SMTP_URL',
    'LOG_LEVEL',
  ]) {
    delete env[name];
  }
  npmStart = spawn('npm', ['start'], {
    cwd: clone,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = npmStart.pid!;
  const waiters: (() => void)[] = [];
  for (const stream of [npmStart.stdout!, npmStart.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      for (const wake of waiters.splice(0)) wake();
    });
  }
  /** Waits for a line matching `pattern`; what it printed so far when it does not come. */
  const line = async (pattern: RegExp, ms = 90_000): Promise<string> => {
    const end = Date.now() + ms;
    for (;;) {
      const found = lines.find((l) => pattern.test(l));
      if (found) return found;
      if (Date.now() > end || npmStart!.exitCode !== null) {
        throw new Error(`no line ${pattern} from npm start:\n${lines.join('\n')}`);
      }
      await new Promise<void>((wake) => {
        waiters.push(wake);
        setTimeout(wake, 250);
      });
    }
  };

  // The address, once the site answers: it answers at the moment the line is printed.
  await line(/^The site is at /);
  expect(lines).toContain(`The site is at ${SITE}/ (Ctrl-C stops everything)`);
  expect((await fetch(`${SITE}/`)).status).toBe(200);

  // A second npm start while this one runs names it and stops, touching nothing.
  // The Node process that runs scripts/start.ts (npm starts it through a shell).
  const supervisor = processGroup(pgid).find(
    (p) => /scripts\/start\.ts/.test(p.command) && /node$/.test(p.command.split(' ')[0]!),
  );
  expect(supervisor).toBeDefined();
  const second = spawnSync('npm', ['start'], {
    cwd: clone,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(second.status).toBe(1);
  expect(second.stderr).toContain(
    `A site is already running at ${SITE}/ (npm start, process ${supervisor!.pid}).`,
  );
  expect(`${second.stdout}${second.stderr}`).not.toMatch(/The site is at|building |in use/);
  expect((await fetch(`${SITE}/`)).status).toBe(200);

  // Readable lines: the mail-service's JSON is shown as time, level and message.
  await line(/^\[mail-service\] .*listening on/);
  expect(lines.filter((l) => l.startsWith('[mail-service] {'))).toEqual([]);
  expect(lines).toContainEqual(
    expect.stringMatching(
      /^\[mail-service\] \[\d\d:\d\d:\d\d\] INFO: mail-service listening on http:\/\/localhost:3491$/,
    ),
  );

  // One static host for the four groups, each on its own port.
  const running = processGroup(pgid);
  const hosts = running.filter((p) => p.command.includes('serve-remote.ts'));
  expect(hosts).toHaveLength(1);
  expect(hosts[0]!.command).toContain(`--site ${clone}`);
  for (const port of GROUP_PORTS) {
    expect((await fetch(`http://localhost:${port}/`)).status).toBe(404);
  }
  test.info().annotations.push({ type: 'npm start', description: summary(running) });
  console.log(`npm start: ${summary(running)}, of which the static host ${summary(hosts)}`);

  // The static host hangs, and the site server then dies and is started again: the site's own
  // pages answer at once, and each group's page from its last good composition (kept where a
  // server that starts later reads it), not with the notice.
  const groupPages = ['/services/custom-dev', '/services/data-analytics', '/public-health'];
  for (const page of groupPages) expect((await fetch(`${SITE}${page}`)).status).toBe(200);
  // Each is kept as it is served, in the background: the crash below comes once all three are.
  const { url: databaseUrl } = JSON.parse(
    readFileSync(path.join(clone, 'deploy', '.database.json'), 'utf8'),
  ) as { url: string };
  const kept = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ path: string }>(
        'SELECT DISTINCT path FROM last_good_pages WHERE path = ANY($1)',
        [groupPages],
      );
      return rows.map((r) => r.path).sort();
    } finally {
      await client.end();
    }
  };
  await expect.poll(kept, { timeout: 15_000 }).toEqual([...groupPages].sort());
  const server = () =>
    processGroup(pgid).find(
      (p) => p.command.includes('shell/server/main.ts') && /node$/.test(p.command.split(' ')[0]!),
    );
  const before = server();
  expect(before).toBeDefined();
  process.kill(hosts[0]!.pid, 'SIGSTOP');
  try {
    process.kill(before!.pid, 'SIGKILL');
    await line(/^\[site\] stopped \(SIGKILL\); restarting in /, 15_000);
    await expect
      .poll(
        () =>
          fetch(`${SITE}/_health`, { signal: AbortSignal.timeout(1000) }).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 60_000 },
      )
      .toBe(200);
    expect(server()?.pid).not.toBe(before!.pid);
    const timed = async (page: string) => {
      const started = performance.now();
      const answer = await fetch(`${SITE}${page}`, { signal: AbortSignal.timeout(60_000) });
      return {
        page,
        status: answer.status,
        html: await answer.text(),
        ms: performance.now() - started,
      };
    };
    const about = await timed('/about');
    expect(about.status).toBe(200);
    for (const page of groupPages) {
      const answer = await timed(page);
      console.log(
        `host hung, server restarted: ${page} ${answer.status} in ${Math.round(answer.ms)} ms`,
      );
      expect(answer.status, page).toBe(200);
      expect(answer.html).not.toContain('temporarily unavailable');
      expect(answer.html).toMatch(/<h1[^>]*>[^<]+/);
    }
    // The host hung delays only its groups' pages: the site's own still answer at once.
    const home = await timed('/');
    console.log(
      `host hung: / ${home.status} in ${Math.round(home.ms)} ms, /about in ${Math.round(about.ms)} ms`,
    );
    expect(home.status).toBe(200);
    expect(home.ms).toBeLessThan(2000);
  } finally {
    process.kill(hosts[0]!.pid, 'SIGCONT');
  }

  // A new group while the site runs: served, built, deployed, live.
  const made = run(clone, 'npm', [
    'run',
    '--silent',
    'new-group',
    '--',
    '--name',
    'garden-care',
    '--prefix',
    '/gardens',
  ]);
  expect(made.stdout).toContain(`port ${NEW_PORT}`);
  await line(
    new RegExp(
      `^\\[remotes\\] remote garden_care: http://localhost:${NEW_PORT}/ .*new in the site table`,
    ),
    15_000,
  );
  // Its deploy token, made by the running npm start as it is for the groups it started with.
  await line(/^deploy tokens: .*made now: garden_care/, 15_000);
  run(clone, 'npm', ['run', 'build', '-w', 'mfe-garden-care']);
  const deployed = run(clone, 'npm', ['run', '--silent', 'deploy', '-w', 'mfe-garden-care'], {
    DEPLOY_API: SITE,
    DEPLOY_BY: 'garden-care-team',
  });
  expect(deployed.stdout).toContain('deployed garden_care');
  // Its overview, at its prefix, is live.
  const page = await fetch(`${SITE}/gardens`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<title>Garden Care');
  expect(
    processGroup(pgid)
      .filter((p) => p.command.includes('serve-remote.ts'))
      .map((p) => p.pid),
  ).toEqual(hosts.map((p) => p.pid));
  expect(lines.filter((l) => / stopped \(/.test(l) && !l.startsWith('[site]'))).toEqual([]);

  // Ctrl-C: SIGINT to the whole group, as a terminal sends it. Every process is gone in seconds.
  const pids = processGroup(pgid).map((p) => p.pid);
  expect(pids.length).toBeGreaterThanOrEqual(4);
  const stoppedAt = Date.now();
  process.kill(-pgid, 'SIGINT');
  await expect
    .poll(() => processGroup(pgid).map((p) => p.command), { timeout: 10_000, intervals: [100] })
    .toEqual([]);
  const tookMs = Date.now() - stoppedAt;
  console.log(`Ctrl-C: every process of npm start gone after ${tookMs} ms`);
  expect(tookMs).toBeLessThan(9000);
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  await line(/^\[mail-service\] .*stopped; /, 1000);
});
