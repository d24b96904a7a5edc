import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CHROMIUM_FLAGS } from '../lib/browser';
import { SITE, STATIC_ORIGIN, STATIC_PREFIX } from './site';
import { fmt, log, median, onCleanup } from './util';

/**
 * Lighthouse 12 through its CLI (mobile, default simulated throttling), one fresh Chromium per run,
 * on each page and on its static copy (the same HTML without scripts), the order alternating from
 * run to run: the category scores, LCP, CLS, and LCP of the page against its copy.
 */

const require = createRequire(import.meta.url);
const LH_CLI = require.resolve('lighthouse/cli/index.js');
export const LIGHTHOUSE_VERSION = (require('lighthouse/package.json') as { version: string })
  .version;
const RUN_TIMEOUT = 150_000;

interface Audit {
  score: number | null;
  scoreDisplayMode?: string;
  numericValue?: number;
  details?: {
    items?: {
      items?: { node?: { selector?: string }; phase?: string; timing?: number }[];
      node?: { selector?: string };
      score?: number;
    }[];
  };
}
interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit | undefined>;
  runWarnings?: string[];
  runtimeError?: { code: string; message: string };
  environment?: { hostUserAgent?: string };
}

/** The category scores and the timings of one run, or their medians over runs. */
interface Scores {
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  lcp: number | null;
  cls: number | null;
  tbt: number | null;
}

export interface Digest extends Scores {
  lcpElement: string | null;
  lcpPhases: Record<string, number>;
  failing: string[];
  warnings: string[];
  userAgent: string | null;
}

export interface LighthouseResult extends Scores {
  runs: number;
  staticRuns: number;
  staticLcp: number | null;
  lcpRatio: number | null;
  lcpElement: string | null;
  lcpPhases: Record<string, number> | null;
  staticLcpElement: string | null;
  staticLcpPhases: Record<string, number> | null;
  failingAudits: Record<string, number>;
  perRun: Scores[];
  staticPerRun: { performance: number | null; lcp: number | null; cls: number | null }[];
  warnings: string[];
  errors: string[];
}

let activeChild: ChildProcess | null = null;
onCleanup(() => {
  if (activeChild) killGroup(activeChild);
});

/**
 * Stops a Lighthouse run: its process group and the Chromium it launched (chrome-launcher starts
 * Chromium detached, in a group of its own, as a child of the Lighthouse process), then removes
 * that Chromium's temporary profile. Only these processes: found by parent id under /proc.
 */
function killGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid == null) return;
  const groups = new Set([pid]);
  const profiles: string[] = [];
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(ppid) !== pid) continue;
        groups.add(Number(pgrp));
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        const dir = cmdline.find((a) => a.startsWith('--user-data-dir='))?.slice(16);
        if (dir && path.basename(dir).startsWith('lighthouse.')) profiles.push(dir);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    // no /proc: the Lighthouse group alone
  }
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  child.kill('SIGKILL');
  for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
}

/** One Lighthouse run in its own process group (its Chromium included), killed on time-out. */
function lighthouse(
  url: string,
  categories: string[],
  executablePath: string,
): Promise<{ lhr?: Lhr; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        LH_CLI,
        url,
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        `--chrome-flags=${['--headless=new', ...CHROMIUM_FLAGS].join(' ')}`,
        `--only-categories=${categories.join(',')}`,
        '--disable-full-page-screenshot',
        '--max-wait-for-load=45000',
      ],
      {
        env: { ...process.env, CHROME_PATH: executablePath },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    activeChild = child;
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + String(d)).slice(-2000);
    });
    let done = false;
    const finish = (result: { lhr?: Lhr; error?: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (activeChild === child) activeChild = null;
      resolve(result);
    };
    const timer = setTimeout(() => {
      killGroup(child);
      finish({ error: `time-out after ${RUN_TIMEOUT / 1000} s` });
    }, RUN_TIMEOUT);
    child.on('error', (error) => finish({ error: error.message }));
    child.on('close', (code) => {
      if (code !== 0) return finish({ error: `exit ${code}: ${err.trim().split('\n').pop()}` });
      try {
        finish({ lhr: JSON.parse(Buffer.concat(out).toString('utf8')) as Lhr });
      } catch (error) {
        finish({ error: `unreadable report: ${String(error)}` });
      }
    });
  });
}

/** What one report says: scores, LCP, CLS, failing audits. */
function digest(lhr: Lhr): Digest {
  const score = (id: string) => {
    const s = lhr.categories[id]?.score;
    return s == null ? null : Math.round(s * 100);
  };
  const failing: string[] = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score == null) continue;
      if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode ?? '')) continue;
      // Accessibility, best practices, SEO: anything short of a pass. Performance: the weighted
      // metrics below "good" (0.9) and the audits Lighthouse marks as failed (score 0).
      const fails =
        id === 'performance'
          ? ref.weight > 0
            ? audit.score < 0.9
            : audit.score === 0
          : audit.score < 1;
      if (fails) failing.push(`${id === 'performance' ? 'perf' : id}:${ref.id}`);
    }
  }
  const lcpItems = lhr.audits['largest-contentful-paint-element']?.details?.items;
  const lcpPhases = Object.fromEntries(
    (lcpItems?.[1]?.items ?? []).map((p) => [p.phase ?? '?', Math.round(p.timing ?? 0)]),
  );
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? null,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? null,
    lcpElement: lcpItems?.[0]?.items?.[0]?.node?.selector ?? null,
    lcpPhases,
    failing: [...new Set(failing)],
    warnings: lhr.runWarnings ?? [],
    userAgent: lhr.environment?.hostUserAgent ?? null,
  };
}

/** Lighthouse's error for a trace in which it found no navigation. */
const TRACE_FAULT = 'NO_NAVSTART';

export async function runLighthouse(
  routes: string[],
  runs: number,
  executablePath: string,
): Promise<{ results: Record<string, LighthouseResult>; userAgent: string | null }> {
  const perRoute = new Map(
    routes.map((r) => [
      r,
      { page: [] as Digest[], static: [] as Digest[], errors: [] as string[] },
    ]),
  );
  const total = routes.length * runs * 2;
  let n = 0;
  for (let run = 0; run < runs; run++) {
    for (const route of routes) {
      const slot = perRoute.get(route)!;
      // Page and static copy side by side, the order alternating from run to run.
      const order = run % 2 === 0 ? (['page', 'static'] as const) : (['static', 'page'] as const);
      for (const kind of order) {
        n += 1;
        const url =
          kind === 'page'
            ? `${SITE}${route}`
            : `${STATIC_ORIGIN}${STATIC_PREFIX}${route === '/' ? '' : route}`;
        const categories =
          kind === 'page'
            ? ['performance', 'accessibility', 'best-practices', 'seo']
            : ['performance'];
        const started = Date.now();
        let { lhr, error } = await lighthouse(url, categories, executablePath);
        // Lighthouse now and then finds no navigation in its own trace (NO_NAVSTART): a fault of
        // the measurement, not of the page, so that run is taken once more.
        if (lhr?.runtimeError?.code === TRACE_FAULT) {
          log(`lighthouse ${n}/${total} ${kind} ${route}: ${TRACE_FAULT}, measured again`);
          ({ lhr, error } = await lighthouse(url, categories, executablePath));
        }
        if (error || !lhr || lhr.runtimeError) {
          const message =
            error ?? `${lhr?.runtimeError?.code}: ${lhr?.runtimeError?.message ?? 'no report'}`;
          slot.errors.push(`${kind} run ${run + 1}: ${message}`);
          log(`lighthouse ${n}/${total} ${kind} ${route}: FAILED ${message}`);
          continue;
        }
        if (process.env.BENCH_REPORTS_DIR) {
          const slug = route === '/' ? 'home' : route.slice(1).replace(/[^\w-]+/g, '_');
          await fs.mkdir(process.env.BENCH_REPORTS_DIR, { recursive: true });
          await fs.writeFile(
            path.join(process.env.BENCH_REPORTS_DIR, `${slug}.${kind}.run${run + 1}.json`),
            JSON.stringify(lhr),
          );
        }
        const d = digest(lhr);
        slot[kind].push(d);
        log(
          `lighthouse ${n}/${total} ${kind.padEnd(6)} ${route}: ` +
            (kind === 'page'
              ? `perf ${d.performance} a11y ${d.accessibility} bp ${d.bestPractices} seo ${d.seo} `
              : `perf ${d.performance} `) +
            `LCP ${fmt(d.lcp)} ms CLS ${fmt(d.cls, 3)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    }
  }
  const results: Record<string, LighthouseResult> = {};
  for (const [route, { page, static: stat, errors }] of perRoute) {
    const m = (key: keyof Scores, list = page) => median(list.map((d) => d[key]));
    const failing: Record<string, number> = {};
    for (const d of page) for (const id of d.failing) failing[id] = (failing[id] ?? 0) + 1;
    const lcp = m('lcp');
    const staticLcp = m('lcp', stat);
    results[route] = {
      runs: page.length,
      staticRuns: stat.length,
      performance: m('performance'),
      accessibility: m('accessibility'),
      bestPractices: m('bestPractices'),
      seo: m('seo'),
      lcp,
      cls: m('cls'),
      tbt: m('tbt'),
      staticLcp,
      lcpRatio: lcp != null && staticLcp ? lcp / staticLcp : null,
      lcpElement: page[0]?.lcpElement ?? null,
      lcpPhases: page[0]?.lcpPhases ?? null,
      staticLcpElement: stat[0]?.lcpElement ?? null,
      staticLcpPhases: stat[0]?.lcpPhases ?? null,
      failingAudits: failing,
      perRun: page.map(({ performance, accessibility, bestPractices, seo, lcp: l, cls, tbt }) => ({
        performance,
        accessibility,
        bestPractices,
        seo,
        lcp: l,
        cls,
        tbt,
      })),
      staticPerRun: stat.map(({ performance, lcp: l, cls }) => ({ performance, lcp: l, cls })),
      warnings: [...new Set(page.flatMap((d) => d.warnings))],
      errors,
    };
  }
  const userAgent = [...perRoute.values()].flatMap((r) => r.page)[0]?.userAgent ?? null;
  return { results, userAgent };
}
