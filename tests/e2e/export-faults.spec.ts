import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { databaseDir, runningServer } from '../../scripts/lib/local-database';
import { ROOT } from '../support/deployment';

/**
 * `npm run export` with no database of its own starts the local run's PostgreSQL for the export and
 * stops it after. An export killed (SIGKILL) or stopped (SIGSTOP) while that server runs leaves it
 * behind; the next export stops it, exports, and leaves no server running; the stopped export, let
 * go again, ends with a failure and the reason instead of waiting for good or ending with 0. Nothing
 * here listens on a fixed port.
 */
const EXPORT = path.join(ROOT, 'scripts', 'export.ts');

let work = '';
const started: ChildProcess[] = [];

test.afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
  const left = work ? runningServer(databaseDir(path.join(work, 'deploy')).dir) : null;
  if (left) process.kill(left, 'SIGINT');
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The environment of an export that must find its database on its own. */
function exportEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DEPLOY_DIR: path.join(work, 'deploy') };
  delete env.DATABASE_URL;
  return env;
}

/** An export started in the background, its output kept. */
function startExport(out: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', EXPORT, '--out', out], {
    cwd: ROOT,
    env: exportEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  started.push(child);
  return { child, output: () => output };
}

/** Waits until a PostgreSQL server runs on `dir`, and returns its pid. */
async function serverStarted(dir: string, output: () => string): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pid = runningServer(dir);
    if (pid) return pid;
    if (Date.now() > deadline) throw new Error(`no PostgreSQL started on ${dir}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An export run to its end, as an operator would run it next. */
function exportNow(out: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', EXPORT, '--out', out], {
    cwd: ROOT,
    env: exportEnv(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('an export killed or stopped while its database runs: the next export clears it, and the stopped one fails with the reason when let go', async () => {
  test.setTimeout(240_000);
  work = mkdtempSync(path.join(os.tmpdir(), 'export-faults-'));
  mkdirSync(path.join(work, 'deploy'));
  const manifest = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/manifest.ts', '--out', path.join(work, 'deploy', 'remotes.json')],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(manifest.status, manifest.stderr).toBe(0);
  const { dir } = databaseDir(path.join(work, 'deploy'));

  await test.step('killed: its server is left, and the next export stops it', async () => {
    const first = startExport(path.join(work, 'out-killed'));
    const pid = await serverStarted(dir, first.output);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(runningServer(dir), 'the killed export left its server').toBe(pid);

    const next = exportNow(path.join(work, 'out-next'));
    expect(next.status, next.output).toBe(0);
    expect(next.output).toContain(
      `PostgreSQL: stopping the server an earlier run left on its data (pid ${pid})`,
    );
    expect(existsSync(path.join(work, 'out-next', 'index.html'))).toBe(true);
    expect(runningServer(dir), 'no server runs after the export').toBeNull();
  });

  await test.step('stopped: the next export goes on, and the stopped one fails with the reason once let go', async () => {
    const stopped = startExport(path.join(work, 'out-stopped'));
    const pid = await serverStarted(dir, stopped.output);
    stopped.child.kill('SIGSTOP');

    const next = exportNow(path.join(work, 'out-after-stop'));
    expect(next.status, next.output).toBe(0);
    expect(next.output).toContain(`(pid ${pid})`);
    expect(existsSync(path.join(work, 'out-after-stop', 'index.html'))).toBe(true);
    expect(runningServer(dir)).toBeNull();

    const ended = new Promise<number | null>((resolve) =>
      stopped.child.once('exit', (code) => resolve(code)),
    );
    stopped.child.kill('SIGCONT');
    const code = await Promise.race([
      ended,
      // A bound on a hang only: it ends within a second of being let go.
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000)),
    ]);
    // Its database is gone: it ends, failed, and says why (never a 0 for an export it did not make),
    // without first waiting out what it had asked the gone server.
    expect(code, `the stopped export, let go:\n${stopped.output()}`).not.toBe('hung');
    expect(code, stopped.output()).not.toBe(0);
    expect(stopped.output()).toMatch(
      /\nexport: the PostgreSQL server on .+ went away before it answered/,
    );
    expect(existsSync(path.join(work, 'out-stopped', 'index.html'))).toBe(false);
    expect(runningServer(dir), 'no server runs after both').toBeNull();
  });
});
