import type { FirstLoad } from './bytes';
import { LIBRARY_MARKERS } from './bytes';
import type { LighthouseResult } from './lighthouse';
import type { NavigationResult } from './navigation';
import type { PhoneResult } from './phone';
import { BUDGET } from './budget';
import { fmt, kb, median, table } from './util';

export interface RouteResult {
  route: string;
  remote: boolean;
  firstLoad: FirstLoad | null;
  lighthouse: LighthouseResult | null;
  error: string | null;
}

export interface BenchData {
  date: string;
  durationS: number;
  options: Record<string, unknown>;
  machine: Record<string, unknown>;
  build: unknown;
  budgets: typeof BUDGET;
  routes: RouteResult[];
  navigation: NavigationResult | null;
  phone: PhoneResult | null;
  problems: string[];
  summary?: ReturnType<typeof summarize>;
}

export function summarize(routes: RouteResult[]) {
  const fl = routes.filter((r): r is RouteResult & { firstLoad: FirstLoad } => !!r.firstLoad);
  const js = (list: typeof fl) => list.map((r) => r.firstLoad.js);
  const shell = fl.filter((r) => !r.remote);
  const remote = fl.filter((r) => r.remote);
  const lh = routes.filter(
    (r): r is RouteResult & { lighthouse: LighthouseResult } => !!r.lighthouse?.runs,
  );
  const meets = (l: LighthouseResult) =>
    (l.performance ?? 0) >= BUDGET.performance &&
    l.accessibility === 100 &&
    l.bestPractices === 100 &&
    l.seo === 100;
  return {
    homeJs: fl.find((r) => r.route === '/')?.firstLoad.js ?? null,
    shellJsMax: shell.length ? Math.max(...js(shell)) : null,
    remoteJsMax: remote.length ? Math.max(...js(remote)) : null,
    remoteJsMedian: median(js(remote)),
    warmingMedian: median(fl.map((r) => r.firstLoad.warming.bytes)),
    librariesOk: fl.every((r) => r.firstLoad.librariesOk),
    librariesBad: fl.filter((r) => !r.firstLoad.librariesOk).map((r) => r.route),
    originsOk: fl.every((r) => r.firstLoad.originsOk),
    originsBad: fl.filter((r) => !r.firstLoad.originsOk).map((r) => r.route),
    lighthouse: lh.length
      ? {
          measured: lh.length,
          meeting: lh.filter((r) => meets(r.lighthouse)).length,
          perfAt100: lh.filter((r) => r.lighthouse.performance === 100).length,
          worstLcpRatio: Math.max(...lh.map((r) => r.lighthouse.lcpRatio ?? 0)),
          worstCls: Math.max(...lh.map((r) => r.lighthouse.cls ?? 0)),
          errors: lh.flatMap((r) => r.lighthouse.errors.map((e) => `${r.route}: ${e}`)),
        }
      : null,
  };
}

const within = (v: number | null, limit: number) =>
  v == null ? '-' : v <= limit ? 'within' : 'OVER';

export function report(data: BenchData): string {
  const out: string[] = [];
  const rows = data.routes.map((r) => {
    const f = r.firstLoad;
    const lh = r.lighthouse;
    return [
      r.route,
      kb(f?.html),
      kb(f?.js),
      kb(f?.fonts),
      f ? kb(f.warming.bytes) : '-',
      fmt(lh?.performance),
      fmt(lh?.accessibility),
      fmt(lh?.bestPractices),
      fmt(lh?.seo),
      fmt(lh?.lcp),
      fmt(lh?.cls, 3),
      fmt(lh?.staticLcp),
      fmt(lh?.lcpRatio, 2),
      f ? (f.librariesOk ? 'ok' : 'LOADED') : '-',
      f ? (f.originsOk ? 'ok' : 'EXTRA') : '-',
    ];
  });
  out.push(
    'Per route (HTML/JS/fonts: first-load KB gzip, the HTML carries the CSS inline; after idle: KB gzip fetched once the page had loaded and gone idle (warming, the contact form code), 1280x720; Lighthouse: medians, mobile)',
    table(
      [
        'route',
        'HTML',
        'JS',
        'fonts',
        'after idle',
        'perf',
        'a11y',
        'bp',
        'seo',
        'LCP ms',
        'CLS',
        'static LCP',
        'ratio',
        'libs',
        'origins',
      ],
      rows,
    ),
  );
  const withFiles = data.routes.filter((r) => r.firstLoad);
  for (const r of [withFiles.find((x) => x.route === '/'), withFiles.find((x) => x.remote)]) {
    if (!r?.firstLoad) continue;
    out.push('', `First-load JS on ${r.route} by file (KB gzip):`);
    for (const f of r.firstLoad.files.filter((x) => x.type === 'script' && !x.warming))
      out.push(`  ${kb(f.gzipBytes).padStart(6)}  ${f.url}`);
  }
  for (const r of withFiles) {
    const loaded = Object.entries(r.firstLoad!.libraries).filter(([, h]) => h.length);
    if (loaded.length)
      out.push(
        `  ${r.route}: ${loaded.map(([l]) => l).join(', ')} downloaded${r.firstLoad!.hasForm || r.firstLoad!.hasMap ? ' (the page has a form or map)' : ' WITHOUT a form or map'}`,
      );
    if (r.firstLoad!.failures.length)
      out.push(`  ${r.route}: failed requests: ${r.firstLoad!.failures.join(', ')}`);
  }
  out.push(
    `Library markers: ${Object.entries(LIBRARY_MARKERS)
      .map(([l, m]) => `${l}: ${m.join(' or ')}`)
      .join('; ')}`,
  );

  const p = data.phone;
  if (p) {
    out.push(
      '',
      `First tap on a phone (touch, no hover, ${p.viewport.width}x${p.viewport.height}, CPU ${p.throttling.cpuSlowdown}x, ${p.throttling.network.latency} ms RTT, ${p.throttling.network.downloadKbps / 1000} Mbps), from ${p.from} after it settled; medians:`,
      table(
        ['tap into', 'link', 'ms', 'x shell', 'warmed KB', 'remote requests after tap', 'runs'],
        [p.shell, ...p.groups].map((t) => [
          t.group,
          t.path ?? '-',
          fmt(t.medianMs),
          t.group === 'shell' ? '1' : fmt(t.ratio, 2),
          kb(t.warmedBytes),
          String(t.remoteRequestsAfterTap),
          String(t.samples.length),
        ]),
      ),
      `  every group within ${BUDGET.tapRatioAim}x: ${p.groups.every((g) => g.ratio != null && g.ratio <= BUDGET.tapRatioAim) ? 'yes' : 'NO'}`,
    );
    for (const n of p.notes) out.push(`  note: ${n}`);
  }
  const n = data.navigation;
  if (n) {
    out.push(
      '',
      `First navigation into a group not loaded yet, desktop (${n.from} -> ${n.into}, CPU ${n.throttling.cpuSlowdown}x, slow 4G):`,
      `  without hover preload  ${fmt(n.noHoverMs).padStart(6)} ms   ${fmt(n.ratioNoHover, 2)}x the shell baseline`,
      `  after hover + 1 s      ${fmt(n.hoverMs).padStart(6)} ms   ${fmt(n.ratioHover, 2)}x the shell baseline`,
      `  within the shell       ${fmt(n.shellMs).padStart(6)} ms   (${n.shellBaseline})`,
    );
    for (const note of n.notes) out.push(`  note: ${note}`);
  }

  const s = data.summary;
  if (s) {
    out.push('', 'Summary');
    out.push(
      `  first-load JS on /: ${kb(s.homeJs)} KB (budget ${kb(BUDGET.firstLoadJsHome)} KB): ${within(s.homeJs, BUDGET.firstLoadJsHome)}`,
      `  shell pages, largest: ${kb(s.shellJsMax)} KB (aim ${kb(BUDGET.firstLoadJsShellAim)} KB): ${within(s.shellJsMax, BUDGET.firstLoadJsShellAim)}`,
      `  remote pages, largest: ${kb(s.remoteJsMax)} KB, median ${kb(s.remoteJsMedian)} KB (aim ${kb(BUDGET.firstLoadJsRemoteAim)} KB): ${within(s.remoteJsMax, BUDGET.firstLoadJsRemoteAim)}`,
      `  fetched after load and idle (warming, the form's code), median per page: ${kb(s.warmingMedian)} KB gzip`,
      `  libraries: ${s.librariesOk ? 'none on pages without a form or map' : 'LOADED on ' + s.librariesBad.join(', ')}`,
      `  origins: ${s.originsOk ? "each first load contacted at most its own group's origin" : 'EXTRA origins on ' + s.originsBad.join(', ')}`,
    );
    if (s.lighthouse)
      out.push(
        `  Lighthouse: ${s.lighthouse.meeting}/${s.lighthouse.measured} routes meet the budgets, ${s.lighthouse.perfAt100} at performance 100; worst LCP ratio ${fmt(s.lighthouse.worstLcpRatio, 2)} (budget ${BUDGET.lcpRatio}); worst CLS ${fmt(s.lighthouse.worstCls, 3)}`,
        ...s.lighthouse.errors.map((e) => `  Lighthouse error: ${e}`),
      );
  }
  for (const problem of data.problems) out.push(`  problem: ${problem}`);
  return out.join('\n');
}
