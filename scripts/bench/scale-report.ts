/**
 * The scale measurement's figures and their table: printed after a run, and written into
 * docs/performance.md so the figures there are always the last run's.
 */
import os from 'node:os';
import { writeDocSection, writtenBy } from './doc-sections';
import { fmt, table } from './util';

/** A figure and the 1-minute load average when it was taken. */
export interface Measured {
  value: number;
  load: number;
}

export interface SizeFigures {
  routes: number;
  /** The median page's bytes, raw and gzip (level 9). */
  pageBytes: Measured;
  pageGzipBytes: Measured;
  /** The median page's embedded manifest. */
  manifestBytes: Measured;
  /** `/remotes.json`, as the site serves it. */
  remotesJsonBytes: Measured;
  /** A page not cached: the median answer time of the first crawl, and the server's own mean. */
  composeMs: Measured;
  serverComposeMs: Measured;
  /** Page cache hits over look-ups, per crawl. */
  firstCrawlHitRate: Measured;
  secondCrawlHitRate: Measured;
  /** After a deploy of the grown group: hits among the pages that are not that group's. */
  afterDeployOthersHitRate: Measured;
  processes: Measured;
  rssMb: Measured;
  /** Cached pages per second, site server / nginx (median over the pages). */
  nginxRatio: Measured;
  siteRps: Measured;
  nginxRps: Measured;
}

export interface ScaleFigures {
  grown: string;
  buildSeconds: number;
  sizes: SizeFigures[];
}

const kib = (m: Measured) => fmt(m.value / 1024, 1);
const pct = (m: Measured) => `${fmt(m.value * 100, 1)} %`;

/** The scale table as text: the header line, the table, the ratios of the largest size. */
export function scaleReport(f: ScaleFigures): string {
  const lines: string[] = [];
  lines.push(
    `Scale: the site grown in group ${f.grown} (${f.buildSeconds ? `one webpack build, ${f.buildSeconds} s` : 'a kept build of the same sources'}); each figure with the 1-minute load average when it was taken (${os.cpus().length} cores)`,
  );
  const rows: [string, (s: SizeFigures) => Measured, (m: Measured) => string][] = [
    ['page KB raw (median page)', (s) => s.pageBytes, kib],
    ['page KB gzip', (s) => s.pageGzipBytes, kib],
    ['embedded manifest KB', (s) => s.manifestBytes, kib],
    ['/remotes.json KB', (s) => s.remotesJsonBytes, kib],
    ['composition ms (median, uncached)', (s) => s.composeMs, (m) => fmt(m.value, 1)],
    ['  server mean ms', (s) => s.serverComposeMs, (m) => fmt(m.value, 1)],
    ['hit rate, first crawl', (s) => s.firstCrawlHitRate, pct],
    ['hit rate, second crawl', (s) => s.secondCrawlHitRate, pct],
    ['other pages hit after a group deploy', (s) => s.afterDeployOthersHitRate, pct],
    ['processes (site server + static host)', (s) => s.processes, (m) => fmt(m.value)],
    ['RSS MB', (s) => s.rssMb, (m) => fmt(m.value)],
    ['cached page req/s, site server', (s) => s.siteRps, (m) => fmt(m.value)],
    ['cached page req/s, nginx', (s) => s.nginxRps, (m) => fmt(m.value)],
    ['site server / nginx', (s) => s.nginxRatio, (m) => `${fmt(m.value, 2)}×`],
  ];
  lines.push(
    table(
      ['routes', ...f.sizes.map((s) => String(s.routes))],
      rows.map(([label, get, show]) => [
        label,
        ...f.sizes.map((s) => `${show(get(s))} (load ${fmt(get(s).load, 1)})`),
      ]),
    ),
  );
  const first = f.sizes[0];
  const last = f.sizes[f.sizes.length - 1];
  if (first && last && last !== first) {
    lines.push(
      `  ${last.routes} routes against ${first.routes}: page bytes ${fmt(last.pageBytes.value / first.pageBytes.value, 2)}× raw, ${fmt(last.pageGzipBytes.value / first.pageGzipBytes.value, 2)}× gzip (aim ≤ 1.2×); composition ${fmt(last.composeMs.value / first.composeMs.value, 2)}× (aim ≤ 1.2×)`,
    );
  }
  return lines.join('\n');
}

export function printScale(f: ScaleFigures): void {
  console.log(`\n${scaleReport(f)}`);
}

/**
 * Writes the table into docs/performance.md between its markers, with the date, the machine and
 * its load, so the figures there are the last run's and cannot drift from what the bench printed.
 */
export async function writeScaleDoc(f: ScaleFigures): Promise<void> {
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(', ');
  await writeDocSection(
    'scale',
    [
      writtenBy('npm run bench -- --only scale', `load average at the end ${load}`),
      '',
      '```text',
      scaleReport(f),
      '```',
    ].join('\n'),
  );
}
