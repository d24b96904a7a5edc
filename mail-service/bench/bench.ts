/**
 * `npm run bench -w mail-service`: how many valid messages a second the durable endpoint accepts
 * into its outbox (202 = committed to disk) while its worker delivers them over real SMTP to a
 * relay in another process, how many it delivers meanwhile, and the accept rate of a bare
 * Express endpoint that only parses the same JSON and answers 202. Both run in child processes on 127.0.0.1, the durable one
 * on a PostgreSQL of the bench's own (started as the tests start theirs, on a free port, and
 * removed after); the load comes from autocannon in this process. Runs alternate (bare, durable, bare, durable) so that the other
 * load on a shared machine hits both alike; the median of the runs is reported.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { startPostgres } from '../src/__tests__/stores';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ORIGIN = 'http://localhost:3000';

const MESSAGE = JSON.stringify({
  user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za' },
  message: {
    subject: 'A new website for our clinic',
    body: 'Hello,\n\nwe would like a quote for a new website with online bookings. '.repeat(6),
  },
});

type Kind = 'bare' | 'durable';

interface Target {
  child: ChildProcess;
  url: string;
}

function startSink(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(path.join(__dirname, 'smtp-sink.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
  });
}

const ask = <T>(child: ChildProcess, question: string, key: string): Promise<T> =>
  new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (key in m) {
        child.off('message', on);
        resolve(m[key] as T);
      }
    };
    child.on('message', on);
    child.send(question);
  });

function startTarget(kind: Kind, dir: string, env: Record<string, string> = {}): Promise<Target> {
  const child = fork(path.join(__dirname, 'target.ts'), [kind], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_DIR: dir, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
    child.once('message', (m: { port?: number }) => {
      if (typeof m.port === 'number') resolve({ child, url: `http://127.0.0.1:${m.port}` });
    });
  });
}

function stopTarget(t: Target): Promise<Record<string, number>> {
  return new Promise((resolve) => {
    t.child.removeAllListeners('exit');
    t.child.on('message', (m: { counts?: Record<string, number> }) => {
      if (m.counts) resolve(m.counts);
    });
    t.child.once('exit', () => resolve({}));
    t.child.send('stop');
  });
}

async function headersFor(t: Target): Promise<Record<string, string>> {
  const res = await fetch(`${t.url}/api/csrf`);
  const token = res.ok ? ((await res.json()) as { token: string }).token : 'none';
  return {
    'content-type': 'application/json',
    origin: ORIGIN,
    cookie: `XSRF-TOKEN=${token}`,
    'x-xsrf-token': token,
  };
}

const load = async (t: Target, headers: Record<string, string>, duration: number) =>
  autocannon({
    url: `${t.url}/api/sendmail`,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    headers,
    body: MESSAGE,
  });

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  accepted: number;
  other: number;
}

const figures = (r: Result): Figures => ({
  rps: Math.round(r['2xx'] / r.duration),
  p50: r.latency.p50,
  p99: r.latency.p99,
  accepted: r['2xx'],
  other: r.non2xx + r.errors + r.timeouts,
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mail-service-bench-'));
  const postgres = await startPostgres();
  const sink = await startSink();
  const targets = {
    bare: await startTarget('bare', path.join(dir, 'bare')),
    durable: await startTarget('durable', path.join(dir, 'durable'), {
      BENCH_DATABASE_URL: postgres.url,
      BENCH_SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    }),
  };
  const deliveryRates: number[] = [];
  const runs: Record<Kind, Figures[]> = { bare: [], durable: [] };
  let durableCounts: Record<string, number>;
  let delivered: number;
  let durableAccepted = 0;
  try {
    const headers = {
      bare: await headersFor(targets.bare).catch(() => ({ 'content-type': 'application/json' })),
      durable: await headersFor(targets.durable),
    };
    // A short warm-up each, so that neither side is measured while still being compiled.
    for (const kind of ['bare', 'durable'] as const) {
      const warm = await load(targets[kind], headers[kind], 1);
      if (kind === 'durable') durableAccepted += warm['2xx'];
    }
    for (let run = 1; run <= RUNS; run++) {
      for (const kind of ['bare', 'durable'] as const) {
        const before = kind === 'durable' ? await ask<number>(sink.child, 'count', 'received') : 0;
        const f = figures(await load(targets[kind], headers[kind], DURATION_S));
        if (kind === 'durable') {
          const after = await ask<number>(sink.child, 'count', 'received');
          deliveryRates.push(Math.round((after - before) / DURATION_S));
        }
        runs[kind].push(f);
        if (kind === 'durable') durableAccepted += f.accepted;
        console.log(
          `run ${run} ${kind.padEnd(7)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms` +
            (kind === 'durable'
              ? `  delivered over SMTP meanwhile: ${deliveryRates[deliveryRates.length - 1]}/s`
              : '') +
            (f.other ? `  (${f.other} not accepted)` : ''),
        );
      }
    }
  } finally {
    await stopTarget(targets.bare);
    // Let delivery finish what was accepted, then stop.
    const waitUntil = Date.now() + 30_000;
    while (Date.now() < waitUntil) {
      const live = await ask<Record<string, number>>(targets.durable.child, 'counts', 'live');
      if ((live.queued ?? 0) === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    durableCounts = await stopTarget(targets.durable);
    sink.child.send('stop');
    await postgres.stop();
    try {
      delivered = readdirSync(path.join(dir, 'durable', 'mailbox')).filter((n) =>
        n.endsWith('.eml'),
      ).length;
    } catch {
      delivered = 0;
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const summary = (kind: Kind) => ({
    rps: median(runs[kind].map((r) => r.rps)),
    p50: median(runs[kind].map((r) => r.p50)),
    p99: median(runs[kind].map((r) => r.p99)),
  });
  const bare = summary('bare');
  const durable = summary('durable');
  const ratio = Math.round((durable.rps / bare.rps) * 100) / 100;

  console.log('');
  console.table({
    'bare Express (parse JSON, 202)': { 'req/s': bare.rps, 'p50 ms': bare.p50, 'p99 ms': bare.p99 },
    'POST /api/sendmail (durable)': {
      'req/s': durable.rps,
      'p50 ms': durable.p50,
      'p99 ms': durable.p99,
    },
  });
  const deliveryRate = median(deliveryRates);
  console.log(`durable / bare throughput: ${ratio} (goal: at least 0.5)`);
  console.log(
    `delivery over SMTP during the flood: ${deliveryRate} messages/s (median), ${Math.round((deliveryRate / durable.rps) * 100)}% of the accept rate`,
  );
  const stored = durableCounts.queued ?? 0;
  const total = stored + (durableCounts.delivered ?? 0) + (durableCounts.failed ?? 0);
  console.log(
    `outbox after the runs: ${total} stored for ${durableAccepted} answered 202 (${durableCounts.delivered ?? 0} delivered, ${stored} still queued), ${delivered} .eml files written`,
  );

  const out = path.join(__dirname, '..', 'bench-results');
  mkdirSync(out, { recursive: true });
  const file = path.join(out, 'latest.json');
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        settings: {
          durationSeconds: DURATION_S,
          runs: RUNS,
          connections: CONNECTIONS,
          bodyBytes: Buffer.byteLength(MESSAGE),
        },
        bare: { ...bare, runs: runs.bare },
        durable: { ...durable, runs: runs.durable },
        ratio,
        deliveryPerSecondDuringLoad: { median: deliveryRate, runs: deliveryRates },
        outbox: { ...durableCounts, answered202: durableAccepted, emlFiles: delivered },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
