/**
 * The site's performance benchmark: `npm run bench` (see docs/performance.md). For the page
 * measurements it starts the site as `npm start` does, on ports 3000..3005 and 3100, so run it under
 * `flock /tmp/e2e-ports.lock`; `throughput` runs the site server and nginx on 3450 and 3451 (3452 on: one host per group) and the cluster's balancer on 3449, `replicas`
 * three site servers, PostgreSQL and nginx from 3460 on (3466 on: one host per group).
 *
 *   npm run bench                          everything: every route of the sitemap, 3 runs
 *   npm run bench -- --quick               bytes on a page of each kind, phone taps, 1 run; no Lighthouse
 *   npm run bench -- --only bytes,phone    some measurements: bytes, lighthouse, navigation, phone,
 *                                          server (the site server's answer times), throughput (the
 *                                          site server's cached pages per second against nginx, and
 *                                          the cluster's balancer keeping pages 1 s against nginx),
 *                                          replicas (a deploy reaching every replica; three site
 *                                          servers behind nginx against one), scale (the site
 *                                          grown to about 100 and 1,000 routes in a scratch copy:
 *                                          bytes, composition, cache, processes, against nginx;
 *                                          only when named, from port 3490 on)
 *   npm run bench -- --routes /,/about --runs 1
 *   npm run bench -- --skip-lighthouse
 *
 * Prints the tables and writes the same data to bench-results/latest.json and a dated copy.
 */
import os from 'node:os';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumExecutable, chromiumLaunchOptions } from '../lib/browser';
import { measureFirstLoad } from './bytes';
import { LIGHTHOUSE_VERSION, runLighthouse } from './lighthouse';
import { measureNavigation, type NavigationResult } from './navigation';
import { measurePhone, type PhoneResult } from './phone';
import { measureSiteServer, printSiteServer } from './site-server';
import { measureThroughput } from './throughput';
import { printThroughput } from './throughput-report';
import { measureReplicas, printReplicas } from './replicas';
import { measureScale } from './scale';
import { printScale, writeScaleDoc } from './scale-report';
import {
  firstLoadSection,
  loadNow,
  phoneSection,
  writeDocSection,
  writtenBy,
} from './doc-sections';
import { BUDGET } from './budget';
import { report, summarize, type BenchData, type RouteResult } from './report';
import { prepareSite, remoteOriginFor } from './site';
import { cleanup, elapsedS, errorMessage, kb, log, withTimeout } from './util';

const MEASUREMENTS = [
  'bytes',
  'lighthouse',
  'navigation',
  'phone',
  'server',
  'throughput',
  'replicas',
  'scale',
] as const;
type Measurement = (typeof MEASUREMENTS)[number];
/** The measurements that need the whole site running as `npm start` runs it. */
const SITE_MEASUREMENTS: readonly Measurement[] = ['bytes', 'lighthouse', 'navigation', 'phone'];

interface Args {
  routes: string[] | null;
  runs: number;
  only: Set<Measurement>;
  quick: boolean;
  help: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    routes: null,
    runs: 3,
    // The scale measurement builds a grown copy of a group: only when named.
    only: new Set(MEASUREMENTS.filter((m) => m !== 'scale')),
    quick: false,
    help: false,
  };
  let runsGiven = false;
  let onlyGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const list = () =>
      value()
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
    if (arg.startsWith('--routes'))
      args.routes = list().map((r) => (r.length > 1 ? r.replace(/\/+$/, '') : r));
    else if (arg.startsWith('--runs')) {
      args.runs = Number(value());
      runsGiven = true;
      if (!Number.isInteger(args.runs) || args.runs < 1 || args.runs > 20)
        throw new Error('--runs must be an integer from 1 to 20');
    } else if (arg.startsWith('--only')) {
      const wanted = list();
      const unknown = wanted.filter((w) => !(MEASUREMENTS as readonly string[]).includes(w));
      if (unknown.length)
        throw new Error(`--only: unknown ${unknown.join(', ')} (${MEASUREMENTS.join(', ')})`);
      args.only = new Set(wanted as Measurement[]);
      onlyGiven = true;
    } else if (arg === '--skip-lighthouse') args.only.delete('lighthouse');
    else if (arg === '--quick') args.quick = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (args.quick) {
    if (!runsGiven) args.runs = 1;
    args.only.delete('lighthouse');
    args.only.delete('navigation');
    if (!onlyGiven) {
      args.only.delete('throughput');
      args.only.delete('replicas');
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(
      'usage: npm run bench -- [--quick] [--only bytes,lighthouse,navigation,phone,server,throughput,replicas,scale] [--routes /,/about] [--runs N] [--skip-lighthouse]',
    );
    return;
  }
  const executablePath = chromiumExecutable() ?? chromium.executablePath();
  const watchdog = setTimeout(
    () => {
      log('the benchmark took longer than its limit: stopping');
      void cleanup().finally(() => process.exit(2));
    },
    3 * 60 * 60_000,
  );
  watchdog.unref();

  // The server measurements start what they measure on ports of their own: the whole site on
  // 3000 is started only for the page measurements.
  const site = SITE_MEASUREMENTS.some((m) => args.only.has(m)) ? await prepareSite() : null;
  // --quick: a page of each kind (the shell's two, the first of each group).
  const quickRoutes = site
    ? ['/', '/about', ...site.remotes.map((r) => r.paths[0]!).filter(Boolean)]
    : [];
  const routes = site ? (args.routes ?? (args.quick ? quickRoutes : site.routes)) : [];
  const unknown = routes.filter((r) => !site?.routes.includes(r));
  if (unknown.length) throw new Error(`not a route of the site: ${unknown.join(', ')}`);
  log(
    `${routes.length} route(s), ${args.runs} run(s): ${[...args.only].join(', ')}; Chromium ${executablePath}`,
  );

  const results: RouteResult[] = routes.map((route) => ({
    route,
    remote: site ? remoteOriginFor(route, site) != null : false,
    firstLoad: null,
    lighthouse: null,
    error: null,
  }));
  let navigation: NavigationResult | null = null;
  let phone: PhoneResult | null = null;
  let browserVersion: string | null = null;
  // The 1-minute load average when each page measurement started and ended, written beside its figures.
  const loads = { bytes: { start: 0, end: 0 }, phone: { start: 0, end: 0 } };

  if (site && (args.only.has('bytes') || args.only.has('navigation') || args.only.has('phone'))) {
    const browser = await chromium.launch({ ...chromiumLaunchOptions(), timeout: 30_000 });
    browserVersion = browser.version();
    try {
      if (args.only.has('bytes')) loads.bytes.start = loadNow();
      if (args.only.has('bytes'))
        for (const r of results) {
          try {
            r.firstLoad = await withTimeout(
              measureFirstLoad(browser, r.route, site),
              75_000,
              `first load of ${r.route}`,
            );
            log(
              `first load ${r.route}: HTML ${kb(r.firstLoad.html)} KB, JS ${kb(r.firstLoad.js)} KB, fonts ${kb(r.firstLoad.fonts)} KB; warming ${kb(r.firstLoad.warming.bytes)} KB`,
            );
          } catch (error) {
            r.error = errorMessage(error);
            log(`first load ${r.route}: FAILED ${r.error}`);
          }
        }
      if (args.only.has('bytes')) loads.bytes.end = loadNow();
      if (args.only.has('phone')) {
        loads.phone.start = loadNow();
        phone = await measurePhone(browser, site, args.runs);
        loads.phone.end = loadNow();
      }
      if (args.only.has('navigation'))
        navigation = await measureNavigation(browser, site, args.runs);
    } finally {
      await browser.close().catch(() => {});
    }
  }

  let userAgent: string | null = null;
  if (args.only.has('lighthouse')) {
    const lh = await runLighthouse(routes, args.runs, executablePath);
    userAgent = lh.userAgent;
    for (const r of results) r.lighthouse = lh.results[r.route] ?? null;
  }

  // The site server's own answer times, on its own ports, with the browser work done.
  const server = args.only.has('server') ? await measureSiteServer() : null;
  // Cached pages per second against nginx, each in its own processes from port 3450 on.
  const throughput = args.only.has('throughput') ? await measureThroughput() : null;
  // Three site servers on one PostgreSQL behind nginx, from port 3460 on.
  const replicas = args.only.has('replicas') ? await measureReplicas() : null;
  // The site grown in a scratch copy, from port 3490 on.
  const scale = args.only.has('scale') ? await measureScale() : null;

  const problems = [...(site?.problems ?? [])];
  for (const r of results) {
    if (r.error) problems.push(`${r.route}: first load not measured: ${r.error}`);
    if (!r.firstLoad) continue;
    if (!r.firstLoad.appReady) problems.push(`${r.route}: the app did not report ready`);
    if (!r.firstLoad.networkIdle) problems.push(`${r.route}: the network never went idle`);
    if (r.firstLoad.heading !== site?.headings[r.route])
      problems.push(
        `${r.route}: heading "${r.firstLoad.heading}" differs from the served "${site?.headings[r.route]}"`,
      );
  }
  const data: BenchData = {
    date: new Date().toISOString(),
    durationS: 0,
    options: {
      routes: args.routes ?? (args.quick ? 'quick' : 'all'),
      runs: args.runs,
      only: [...args.only],
    },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
      node: process.version,
      chromium: browserVersion,
      lighthouseUserAgent: userAgent,
      lighthouse: LIGHTHOUSE_VERSION,
    },
    build: site?.build ?? null,
    budgets: BUDGET,
    routes: results,
    navigation,
    phone,
    problems,
  };
  data.summary = summarize(results);
  data.durationS = elapsedS();
  if (site) console.log(`\n${report(data)}`);
  if (server) printSiteServer(server);
  if (throughput) printThroughput(throughput);
  if (replicas) printReplicas(replicas);
  if (scale) {
    printScale(scale);
    await writeScaleDoc(scale);
  }
  const loadText = ({ start, end }: { start: number; end: number }) =>
    `1-minute load average ${start} at the start, ${end} at the end`;
  // Only a run over every route speaks for the site's first-load figures.
  if (site && args.only.has('bytes') && !args.routes && !args.quick)
    await writeDocSection(
      'first-load',
      [
        writtenBy('npm run bench -- --only bytes', loadText(loads.bytes)),
        '',
        firstLoadSection(
          results,
          (route) => site.remotes.find((r) => r.paths.includes(route))?.name ?? null,
        ),
      ].join('\n'),
    );
  if (phone)
    await writeDocSection(
      'phone',
      [
        writtenBy(`npm run bench -- --only phone --runs ${args.runs}`, loadText(loads.phone)),
        '',
        phoneSection(phone),
      ].join('\n'),
    );

  const outDir = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    'bench-results',
  );
  await fs.mkdir(outDir, { recursive: true });
  const json = `${JSON.stringify({ ...data, ...(throughput ? { throughput } : {}), ...(replicas ? { replicas } : {}), ...(scale ? { scale } : {}) }, null, 2)}\n`;
  await fs.writeFile(path.join(outDir, 'latest.json'), json);
  await fs.writeFile(path.join(outDir, `${data.date.replace(/[:.]/g, '-')}.json`), json);
  console.log(`\nwritten: bench-results/latest.json (and a dated copy); ${data.durationS} s`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    console.error(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    await cleanup();
    process.exit(1);
  });
