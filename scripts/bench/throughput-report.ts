/** The throughput measurement's table (`throughput.ts`): each page on each side, and the ratios. */
import { fmt, table } from './util';
import type { Sample } from './processes';
import type { ThroughputFigures } from './throughput';

export function printThroughput(f: ThroughputFigures): void {
  console.log(
    `\nThroughput: cached pages, site server against nginx ${f.nginxVersion} (1 worker) and the cluster's balancer (1 worker, pages kept 1 s), wrk ${f.threads} thread ${f.connections} connections ${f.seconds} s, Accept-Encoding: ${f.encoding}, median of ${f.rounds} rounds`,
  );
  console.log(`  /proc/loadavg before: ${f.loadavg.before}; after: ${f.loadavg.after}`);
  const rows = f.pages.map((p) => [
    p.path,
    p.bytes
      ? [p.bytes.site, p.bytes.nginx, p.bytes.balancer].map((b) => fmt(b / 1024, 1)).join(' / ')
      : '-',
    fmt(p.site.rps),
    fmt(p.site.p50Ms, 2),
    fmt(p.site.p99Ms, 2),
    fmt(p.nginx.rps),
    fmt(p.nginx.p50Ms, 2),
    fmt(p.nginx.p99Ms, 2),
    fmt(p.balancer.rps),
    fmt(p.balancer.p50Ms, 2),
    fmt(p.balancer.p99Ms, 2),
    `${fmt(p.ratio, 2)}×`,
    `${fmt(p.balancerRatio, 2)}×`,
  ]);
  console.log(
    table(
      [
        'page',
        'gzip KB',
        'site req/s',
        'p50 ms',
        'p99 ms',
        'nginx req/s',
        'p50 ms',
        'p99 ms',
        'balancer req/s',
        'p50 ms',
        'p99 ms',
        'site / nginx',
        'balancer / nginx',
      ],
      rows,
    ),
  );
  for (const p of f.pages) {
    const list = (rounds: Sample[]) => rounds.map((s) => fmt(s.rps)).join(', ');
    console.log(
      `  ${p.path}: site ${list(p.site.rounds)}; nginx ${list(p.nginx.rounds)}; balancer ${list(p.balancer.rounds)} req/s`,
    );
  }
  if (!f.sameHtml)
    console.log(
      "  note: a page's HTML differed between the site server, the export and the balancer",
    );
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `  site server / nginx: ${fmt(f.ratio, 2)}× (median of the pages; aim ≥ ${f.aim.ratio}×: ${met(f.aim.ratioMet)})`,
  );
  console.log(
    `  balancer (pages kept 1 s) / nginx: ${fmt(f.balancerRatio, 2)}× (median of the pages)`,
  );
  console.log(
    `  site server p99: at most ${fmt(f.siteP99Ms, 2)} ms (aim ≤ ${f.aim.p99Ms} ms: ${met(f.aim.p99Met)})`,
  );
}
