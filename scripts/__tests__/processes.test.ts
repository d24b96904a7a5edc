import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { promisify } from 'node:util';
import type { PostgresServer } from '@site/build/testing/postgres';
import { listenOnFreePort, portRange } from '@site/build/testing/ports';
import http from 'node:http';
import { findNginx } from '../lib/cluster';
import readline from 'node:readline';
import { BACKOFF, restartDelay, type Backoff, type ProcessSpec } from '../lib/processes';

/**
 * The local run's supervisor, for real: a supervisor process (as `npm start` runs it) over small
 * Node.js processes that crash, get killed or ignore SIGTERM.
 */

const DRIVER = path.join(__dirname, 'support', 'supervise.ts');
const FAST: Backoff = { firstMs: 200, maxMs: 800, resetAfterMs: 60_000 };

/** A process that says it is up, then runs until it is stopped. */
const steady = (name: string): ProcessSpec => ({
  name,
  args: ['-e', 'console.log(`up ${process.pid}`); setInterval(() => {}, 1000);'],
});
/** A process that fails as soon as it starts. */
const failing = (name: string, afterMs = 0): ProcessSpec => ({
  name,
  args: [
    '-e',
    `console.log(\`up \${process.pid}\`); setTimeout(() => process.exit(1), ${afterMs});`,
  ],
});

interface Line {
  at: number;
  text: string;
}

class Supervised {
  readonly lines: Line[] = [];
  readonly exited: Promise<number | null>;
  /** Resolves once the supervisor has exited and its output has ended: no line can follow. */
  readonly closed: Promise<void>;
  private waiters: (() => void)[] = [];

  constructor(readonly child: ChildProcess) {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      readline.createInterface({ input: stream }).on('line', (text) => {
        this.lines.push({ at: Date.now(), text });
        for (const wake of this.waiters.splice(0)) wake();
      });
    }
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    this.closed = new Promise((resolve) => child.once('close', () => resolve()));
  }

  /** Lines matching `pattern`, in order. */
  matching(pattern: RegExp): Line[] {
    return this.lines.filter((l) => pattern.test(l.text));
  }

  /** Waits until `count` lines match `pattern`; resolves with them. */
  async waitFor(pattern: RegExp, count = 1, timeoutMs = 15_000): Promise<Line[]> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.matching(pattern);
      if (found.length >= count) return found;
      if (Date.now() > end) {
        throw new Error(
          `timed out waiting for ${count} × ${pattern}; output:\n${this.lines.map((l) => l.text).join('\n')}`,
        );
      }
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 100);
      });
    }
  }

  /** The pids a process said it started with, in order. */
  pids(name: string): number[] {
    return this.matching(new RegExp(`^\\[${name}\\] up \\d+$`)).map((l) =>
      Number(l.text.split(' ').pop()),
    );
  }
}

const started: Supervised[] = [];

function supervise(specs: ProcessSpec[], options: { backoff?: Backoff; graceMs?: number } = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', DRIVER, JSON.stringify({ specs, backoff: FAST, ...options })],
    // A group of its own, so that the clean-up below reaches whatever it left behind.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const s = new Supervised(child);
  started.push(s);
  return s;
}

afterEach(() => {
  for (const s of started.splice(0)) {
    try {
      if (s.child.pid !== undefined) process.kill(-s.child.pid, 'SIGKILL');
    } catch {
      // Already gone: the test stopped it.
    }
  }
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port free a moment ago, from 3580 to 3589 (tests side by side each have a range). */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  const port = await listenOnFreePort(
    probe,
    portRange(3580, 3589, 3580 + Math.floor(Math.random() * 10)),
  );
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the supervisor of the local run', () => {
  test('waits 0.5 s, doubling to 30 s, and starts over after a minute of running', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => restartDelay(n))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(BACKOFF.resetAfterMs).toBe(60_000);
  });

  test('a process that exits with 1 is restarted, with doubling waits, while the others run on', async () => {
    const s = supervise([failing('api'), steady('site')]);
    const notes = await s.waitFor(/^\[api\] stopped/, 4);
    expect(notes.map((l) => l.text)).toEqual([
      '[api] stopped (exit 1); restarting in 0.2 s (restart 1)',
      '[api] stopped (exit 1); restarting in 0.4 s (restart 2)',
      '[api] stopped (exit 1); restarting in 0.8 s (restart 3)',
      '[api] stopped (exit 1); restarting in 0.8 s (restart 4)',
    ]);
    // Each start came no sooner than the wait announced before it: never a tight loop.
    const ups = s.matching(/^\[api\] up /);
    expect(ups.length).toBeGreaterThanOrEqual(4);
    for (const [i, wait] of [200, 400, 800].entries()) {
      expect((ups[i + 1] as Line).at - (notes[i] as Line).at).toBeGreaterThanOrEqual(wait - 20);
    }
    expect(s.pids('site')).toHaveLength(1);
    expect(s.matching(/^\[site\] stopped/)).toEqual([]);
  });

  test('a process killed with SIGKILL is started again', async () => {
    const s = supervise([steady('site')]);
    await s.waitFor(/^\[site\] up /);
    const [first] = s.pids('site');
    process.kill(first as number, 'SIGKILL');
    await s.waitFor(/^\[site\] up /, 2);
    expect(s.matching(/^\[site\] stopped/).map((l) => l.text)).toEqual([
      '[site] stopped (SIGKILL); restarting in 0.2 s (restart 1)',
    ]);
    const [, second] = s.pids('site');
    expect(second).not.toBe(first);
    expect(alive(second as number)).toBe(true);
  });

  test('a process that ran for longer than the reset time starts over at the first wait', async () => {
    const s = supervise([failing('worker', 400)], {
      backoff: { firstMs: 200, maxMs: 800, resetAfterMs: 300 },
    });
    const notes = await s.waitFor(/^\[worker\] stopped/, 3);
    expect(notes.map((l) => l.text)).toEqual([
      '[worker] stopped (exit 1); restarting in 0.2 s (restart 1)',
      '[worker] stopped (exit 1); restarting in 0.2 s (restart 2)',
      '[worker] stopped (exit 1); restarting in 0.2 s (restart 3)',
    ]);
  });

  test('SIGTERM to the supervisor stops every process and restarts none', async () => {
    const s = supervise([steady('site'), steady('mail-service'), failing('api')]);
    await s.waitFor(/^\[site\] up /);
    await s.waitFor(/^\[mail-service\] up /);
    await s.waitFor(/^\[api\] stopped/, 2);
    const pids = [...s.pids('site'), ...s.pids('mail-service')];
    const before = s.lines.length;

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    // The failing process's pending restart is cancelled too: nothing starts after the stop
    // (read once the supervisor's output has ended, so no later line is missed).
    await s.closed;
    const after = s.lines.slice(before).map((l) => l.text);
    expect(after.filter((t) => / up \d+$|restarting/.test(t))).toEqual([]);
  });

  test('the database is asked to stop only once the processes using it have exited', async () => {
    // The mail-service takes 600 ms to finish its send; the database says when it is asked.
    const slow: ProcessSpec = {
      name: 'mail-service',
      args: [
        '-e',
        "process.on('SIGTERM', () => setTimeout(() => { console.log('send finished'); process.exit(0); }, 600)); console.log(`up ${process.pid}`); setInterval(() => {}, 1000);",
      ],
    };
    const database: ProcessSpec = {
      name: 'postgres',
      args: [
        '-e',
        "process.on('SIGINT', () => { console.log('asked to stop'); process.exit(0); }); console.log(`up ${process.pid}`); setInterval(() => {}, 1000);",
      ],
      stopSignal: 'SIGINT',
      stopLast: true,
    };
    const s = supervise([database, slow, steady('site')]);
    await s.waitFor(/^\[postgres\] up /);
    await s.waitFor(/^\[mail-service\] up /);
    await s.waitFor(/^\[site\] up /);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await s.closed;
    const [finished] = s.matching(/^\[mail-service\] send finished$/);
    const [asked] = s.matching(/^\[postgres\] asked to stop$/);
    expect(finished).toBeDefined();
    expect(asked).toBeDefined();
    expect(s.lines.indexOf(asked!)).toBeGreaterThan(s.lines.indexOf(finished!));
  });

  test('a process that ignores SIGTERM is killed after the grace period', async () => {
    const stubborn: ProcessSpec = {
      name: 'stubborn',
      args: [
        '-e',
        "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log(`up ${process.pid}`); setInterval(() => {}, 1000);",
      ],
    };
    const s = supervise([stubborn], { graceMs: 500 });
    await s.waitFor(/^\[stubborn\] up /);
    const [pid] = s.pids('stubborn');
    const stoppedAt = Date.now();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(450);
    expect(s.matching(/ignoring SIGTERM/)).toHaveLength(1);
    expect(alive(pid as number)).toBe(false);
    expect(s.matching(/restarting/)).toEqual([]);
  });

  test('a process that stops on its settings (exit 78) stops the run: nothing restarted', async () => {
    const misconfigured: ProcessSpec = {
      name: 'mail-service',
      args: [
        '-e',
        "console.error('RATE_LIMIT_WINDOW: expected a whole number'); process.exit(78);",
      ],
    };
    const s = supervise([misconfigured, steady('site')]);
    expect(await s.exited).toBe(78);
    expect(s.lines.map((l) => l.text)).toEqual(
      expect.arrayContaining([
        '[mail-service] RATE_LIMIT_WINDOW: expected a whole number',
        '[mail-service] stopped on its settings (the lines above name each one): change them and start again; stopping everything',
      ]),
    );
    expect(s.matching(/restarting/)).toEqual([]);
    for (const pid of s.pids('site')) expect(alive(pid)).toBe(false);
  });

  test("a process's pino JSON lines are shown as human lines; its other lines as they are", async () => {
    const time = Date.UTC(2026, 10, 25, 9, 30, 5);
    const pinoLike: ProcessSpec = {
      name: 'mail-service',
      logs: 'pino',
      args: [
        '-e',
        `for (const line of [
          { level: 30, time: ${time}, service: 'mail-service', port: 3005, msg: 'listening on http://localhost:3005' },
          { level: 40, time: ${time}, service: 'mail-service', err: 'ECONNREFUSED', msg: 'delivery failed; will retry' },
          { level: 30, time: ${time}, service: 'mail-service', method: 'POST', path: '/api/sendmail', status: 202, ms: 12.4, msg: 'request' },
        ]) console.log(JSON.stringify(line));
        console.log('a plain line');
        setInterval(() => {}, 1000);`,
      ],
    };
    const s = supervise([pinoLike]);
    await s.waitFor(/^\[mail-service\] a plain line$/);
    const shown = s
      .matching(/^\[mail-service\]/)
      .map((l) => l.text.replace(/\d\d:\d\d:\d\d/, 'HH:MM:SS'));
    expect(shown).toEqual([
      '[mail-service] [HH:MM:SS] INFO: listening on http://localhost:3005',
      '[mail-service] [HH:MM:SS] WARN: delivery failed; will retry {"err":"ECONNREFUSED"}',
      '[mail-service] [HH:MM:SS] INFO: POST /api/sendmail 202 12.4 ms',
      '[mail-service] a plain line',
    ]);
  });
  test('PostgreSQL killed is started again by itself, said in the log, and takes writes again within 10 s', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supervised-pg-'));
    // PostgreSQL runs as a user of its own where the tests run as root: it must reach its folder.
    chmodSync(dir, 0o755);
    const port = await freePort();
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        path.join(__dirname, 'support', 'prepare-postgres.ts'),
        String(port),
        path.join(dir, 'data'),
      ]);
      const server = JSON.parse(stdout.trim().split('\n').pop()!) as PostgresServer;
      const s = supervise([
        {
          name: 'postgres',
          command: server.command,
          args: server.args,
          ...(server.uid === undefined ? {} : { uid: server.uid, gid: server.gid }),
          ownGroup: true,
          stopSignal: 'SIGINT',
        },
      ]);
      const write = async () => {
        const client = new pg.Client({
          connectionString: server.url,
          connectionTimeoutMillis: 1000,
        });
        client.on('error', () => undefined);
        try {
          await client.connect();
          await client.query('CREATE TABLE IF NOT EXISTS marks (at timestamptz)');
          await client.query('INSERT INTO marks VALUES (now())');
          return true;
        } catch {
          return false;
        } finally {
          await client.end().catch(() => undefined);
        }
      };
      const until = async (limitMs: number) => {
        const started = Date.now();
        while (!(await write())) {
          if (Date.now() - started > limitMs) return Infinity;
          await sleep(100);
        }
        return Date.now() - started;
      };
      expect(await until(30_000)).toBeLessThan(30_000);
      const first = Number(
        readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(first, 'SIGKILL');
      const killedAt = Date.now();
      await s.waitFor(/^\[postgres\] stopped \(SIGKILL\); restarting in 0\.2 s \(restart 1\)$/);
      await s.waitFor(/^\[postgres\] started again \(restart 1, pid \d+\)$/);
      const back = await until(10_000);
      console.log(
        `supervisor: PostgreSQL took writes again ${Date.now() - killedAt} ms after its SIGKILL (load average ${os.loadavg()[0]!.toFixed(2)})`,
      );
      expect(back).toBeLessThan(10_000);
      expect(Date.now() - killedAt).toBeLessThan(10_000);
    } finally {
      for (const s of started) if (s.child.pid !== undefined) process.kill(s.child.pid, 'SIGTERM');
      await Promise.all(started.map((s) => s.exited));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("nginx's master killed: its workers go with it, and nginx started again has the port", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supervised-nginx-'));
    const port = await freePort();
    const config = path.join(dir, 'nginx.conf');
    writeFileSync(
      config,
      `worker_processes 2;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server { listen ${port}; location / { return 200 "ok"; } }
}
`,
    );
    /** The processes in process group `pgid`. */
    const group = (pgid: number) =>
      readdirSync('/proc').filter((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return fields[0] !== 'Z' && Number(fields[2]) === pgid;
        } catch {
          return false;
        }
      });
    const answers = () =>
      fetch(`http://127.0.0.1:${port}/`).then(
        (r) => r.status === 200,
        () => false,
      );
    try {
      const s = supervise([
        {
          name: 'nginx',
          command: findNginx(),
          args: ['-p', dir, '-c', config, '-g', 'daemon off;'],
          ownGroup: true,
        },
      ]);
      await s.waitFor(/^supervising$/);
      while (!(await answers())) await sleep(100);
      const master = Number(readFileSync(path.join(dir, 'nginx.pid'), 'utf8').trim());
      expect(group(master).length).toBeGreaterThanOrEqual(3);
      process.kill(master, 'SIGKILL');
      await s.waitFor(/^\[nginx\] stopped \(SIGKILL\); restarting in 0\.2 s \(restart 1\)$/);
      await s.waitFor(/^\[nginx\] started again \(restart 1, pid \d+\)$/);
      // The old workers are gone, and the new nginx holds the port.
      expect(group(master)).toEqual([]);
      while (!(await answers())) await sleep(100);
      const again = Number(readFileSync(path.join(dir, 'nginx.pid'), 'utf8').trim());
      expect(again).not.toBe(master);
      expect(s.matching(/^\[nginx\] stopped/)).toHaveLength(1);
      expect(readFileSync(path.join(dir, 'error.log'), 'utf8')).not.toContain(
        'Address already in use',
      );
    } finally {
      for (const s of started) if (s.child.pid !== undefined) process.kill(s.child.pid, 'SIGTERM');
      await Promise.all(started.map((s) => s.exited));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
