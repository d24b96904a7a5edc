/**
 * What the benchmarks that run servers of their own share: a free port, a process started and
 * stopped on clean-up, the groups' static hosts, and wrk's figures at the same load.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { SITE_REMOTES } from '@site/contracts/site';
import { median, onCleanup } from './util';

const root = path.join(__dirname, '..', '..');
const execFileAsync = promisify(execFile);

export const CONNECTIONS = 50;
export const THREADS = 1;
export const ENCODING = 'gzip';

export interface Sample {
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

export async function waitFor(
  url: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process stopped:\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up:\n${output()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Starts a process, stopped again on clean-up; resolves with it when `readyUrl` answers. */
export async function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => (output = (output + String(d)).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        // nginx: QUIT is its graceful stop; Node takes TERM.
        child.kill(command.endsWith('nginx') ? 'SIGQUIT' : 'SIGTERM');
      }),
  );
  await waitFor(readyUrl, child, () => output);
  return child;
}

/**
 * Starts a static host for each group's build, as a team's host or CDN serves it
 * (scripts/serve-remote.ts), the site table's i-th group on `ports[i]`. Resolves with each group's
 * `REMOTE_<NAME>_URL`, for the manifest step.
 */
export async function startRemoteHosts(ports: readonly number[]): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const [i, remote] of SITE_REMOTES.entries()) {
    const port = ports[i];
    if (port === undefined) throw new Error(`no port for the group ${remote.name}`);
    await start(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'scripts', 'serve-remote.ts'),
        '--dist',
        path.join(root, remote.folder, 'dist'),
        '--port',
        String(port),
      ],
      {},
      `http://127.0.0.1:${port}/`,
    );
    urls[`REMOTE_${remote.name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
  }
  return urls;
}

export const toMs = (value: string, unit: string): number =>
  Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? NaN);

/**
 * One wrk run on a URL. Asynchronous: while it runs, this process keeps reading the output of the
 * servers it started, which would otherwise stop on a full pipe (a request log line per answer)
 * and answer nothing.
 */
export async function wrk(url: string, seconds: number): Promise<Sample> {
  const { failed, out } = await execFileAsync(
    'wrk',
    [
      `-t${THREADS}`,
      `-c${CONNECTIONS}`,
      `-d${seconds}s`,
      '--latency',
      '-H',
      `Accept-Encoding: ${ENCODING}`,
      url,
    ],
    { encoding: 'utf8', timeout: (seconds + 30) * 1000 },
  ).then(
    ({ stdout, stderr }) => ({ failed: false, out: `${stdout}${stderr}` }),
    (error: { stdout?: string; stderr?: string; message?: string }) => ({
      failed: true,
      out: `${error.stdout ?? ''}${error.stderr ?? ''}` || String(error.message),
    }),
  );
  if (failed) throw new Error(`wrk ${url} failed:\n${out}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  if (non2xx) throw new Error(`wrk ${url}: ${non2xx[1]} answers were not 2xx or 3xx`);
  const errors = /Socket errors: (.*)/.exec(out);
  if (errors) throw new Error(`wrk ${url}: socket errors (${errors[1]})`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const latency = (p: number) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m ? toMs(m[1] ?? '', m[2] ?? '') : NaN;
  };
  if (!rps) throw new Error(`wrk ${url}: no Requests/sec in:\n${out}`);
  return { rps: Number(rps[1]), p50Ms: latency(50), p99Ms: latency(99) };
}

export const medianOf = (samples: Sample[]): Sample => ({
  rps: median(samples.map((s) => s.rps)) ?? NaN,
  p50Ms: median(samples.map((s) => s.p50Ms)) ?? NaN,
  p99Ms: median(samples.map((s) => s.p99Ms)) ?? NaN,
});
