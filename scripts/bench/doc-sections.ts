/**
 * Sections of docs/performance.md that the bench writes itself, between `<!-- bench:NAME -->` and
 * `<!-- /bench:NAME -->`, so the figures there are the last run's and cannot drift from what it
 * printed: the scale table, the first-load bytes by kind of page, the first tap on a phone. Each
 * carries the date, the machine and the 1-minute load average when it was measured.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FirstLoad } from './bytes';
import type { PhoneResult } from './phone';
import { BUDGET } from './budget';
import type { RouteResult } from './report';
import { fmt, kb, log, median, table } from './util';

const root = path.join(__dirname, '..', '..');
const DOC = path.join(root, 'docs', 'performance.md');

/** The 1-minute load average, to one decimal. */
export const loadNow = (): number => Number((os.loadavg()[0] ?? 0).toFixed(1));

/** Who wrote a section, when, and on what: the line above its figures. */
export function writtenBy(command: string, loads: string): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `Written by \`${command}\` on ${new Date().toISOString()} (Node ${process.version}, ${os.cpus().length} × ${cpu}, ${loads}):`;
}

/** Replaces the section `name` of docs/performance.md with `body`; says so if it has no markers. */
export async function writeDocSection(name: string, body: string): Promise<void> {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const doc = await fs.readFile(DOC, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to < from) {
    log(`${name}: ${path.relative(root, DOC)} has no ${start} … ${end} section: not written`);
    return;
  }
  const block = [start, '', body, '', end].join('\n');
  await fs.writeFile(DOC, doc.slice(0, from) + block + doc.slice(to + end.length));
  log(`${name}: written into ${path.relative(root, DOC)}`);
}

type Measured = RouteResult & { firstLoad: FirstLoad };

const range = (values: number[]) =>
  values.length === 0
    ? '-'
    : Math.min(...values) === Math.max(...values)
      ? kb(values[0])
      : `${kb(Math.min(...values))} to ${kb(Math.max(...values))}`;

/**
 * First-load JS by kind of page (KB gzip, 1 KB = 1024 bytes): `/`, the shell's other pages, each
 * group's pages, against the budgets; and the files of the heaviest remote page.
 */
export function firstLoadSection(
  routes: RouteResult[],
  groupOf: (route: string) => string | null,
): string {
  const measured = routes.filter((r): r is Measured => r.firstLoad != null);
  const js = (list: Measured[]) => list.map((r) => r.firstLoad.js);
  const shell = measured.filter((r) => !r.remote);
  const remote = measured.filter((r) => r.remote);
  const groups = [...new Set(remote.map((r) => groupOf(r.route) ?? '?'))];
  const verdict = (max: number, limit: number) => (max <= limit ? 'within' : 'OVER');
  const rows: string[][] = [];
  const home = measured.find((r) => r.route === '/');
  if (home)
    rows.push([
      '/',
      '1',
      kb(home.firstLoad.js),
      `${kb(BUDGET.firstLoadJsHome)} (budget)`,
      verdict(home.firstLoad.js, BUDGET.firstLoadJsHome),
    ]);
  if (shell.length)
    rows.push([
      "the shell's pages",
      String(shell.length),
      range(js(shell)),
      `${kb(BUDGET.firstLoadJsShellAim)}`,
      verdict(Math.max(...js(shell)), BUDGET.firstLoadJsShellAim),
    ]);
  for (const group of groups) {
    const pages = remote.filter((r) => (groupOf(r.route) ?? '?') === group);
    rows.push([
      group,
      String(pages.length),
      range(js(pages)),
      `${kb(BUDGET.firstLoadJsRemoteAim)}`,
      verdict(Math.max(...js(pages)), BUDGET.firstLoadJsRemoteAim),
    ]);
  }
  const lines = [
    '```text',
    table(['pages', 'routes', 'first-load JS KB gzip', 'limit KB', ''], rows),
  ];
  if (remote.length) {
    const heaviest = remote.reduce((a, b) => (b.firstLoad.js > a.firstLoad.js ? b : a));
    lines.push(
      `remote pages: median ${kb(median(js(remote)))} KB, largest ${kb(heaviest.firstLoad.js)} KB (${heaviest.route}); by file:`,
    );
    for (const f of heaviest.firstLoad.files.filter((x) => x.type === 'script' && !x.warming))
      lines.push(`  ${kb(f.gzipBytes).padStart(6)}  ${f.url}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** The first tap into each group on a phone, against a tap within the shell. */
export function phoneSection(p: PhoneResult): string {
  const rows = [p.shell, ...p.groups].map((t) => [
    t.group === 'shell' ? 'within the shell' : t.group,
    t.from,
    t.path ?? '-',
    fmt(t.medianMs),
    t.group === 'shell' ? '1' : fmt(t.ratio, 2),
    t.samples.map((s) => fmt(s)).join(', '),
    kb(t.warmedBytes),
    String(t.remoteRequestsAfterTap),
  ]);
  const within = p.groups.every((g) => g.ratio != null && g.ratio <= BUDGET.tapRatioAim);
  return [
    '```text',
    table(
      [
        'tap into',
        'from',
        'link',
        'median ms',
        'x shell',
        'runs ms',
        'warmed KB',
        'remote requests after',
      ],
      rows,
    ),
    `every group within ${BUDGET.tapRatioAim}x: ${within ? 'yes' : 'NO'}`,
    ...p.notes.map((n) => `note: ${n}`),
    '```',
  ].join('\n');
}
