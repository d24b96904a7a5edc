import type { FirstLoad } from '../bench/bytes';
import { firstLoadSection, phoneSection } from '../bench/doc-sections';
import type { PhoneResult, PhoneTarget } from '../bench/phone';
import type { RouteResult } from '../bench/report';

/**
 * The sections the bench writes into docs/performance.md: first-load JS by kind of page against
 * the budgets, and the first tap on a phone against a tap within the shell.
 */
const page = (route: string, remote: boolean, js: number): RouteResult => ({
  route,
  remote,
  firstLoad: {
    route,
    js,
    files: [{ url: `${route}.js`, type: 'script', rawBytes: js, gzipBytes: js, warming: false }],
  } as FirstLoad,
  lighthouse: null,
  error: null,
});

test('first-load JS: `/`, the shell pages and each group, each against its limit', () => {
  const groups: Record<string, string> = { '/a': 'alpha', '/a/x': 'alpha', '/b': 'beta' };
  const text = firstLoadSection(
    [
      page('/', false, 100 * 1024),
      page('/about', false, 99 * 1024),
      page('/a', true, 120 * 1024),
      page('/a/x', true, 124 * 1024),
      page('/b', true, 126 * 1024),
    ],
    (route) => groups[route] ?? null,
  );
  expect(text).toMatch(/^\/ +1 +100\.0 +110\.0 \(budget\) +within$/m);
  expect(text).toMatch(/^the shell's pages +2 +99\.0 to 100\.0 +100\.0 +within$/m);
  expect(text).toMatch(/^alpha +2 +120\.0 to 124\.0 +125\.0 +within$/m);
  expect(text).toMatch(/^beta +1 +126\.0 +125\.0 +OVER$/m);
  expect(text).toContain('largest 126.0 KB (/b); by file:');
});

test('phone taps: each group with its ratio to the shell tap, its runs and what came after', () => {
  const target = (group: string, ms: number, ratio: number | null): PhoneTarget => ({
    group,
    from: '/',
    path: `/${group}`,
    medianMs: ms,
    ratio,
    samples: [ms, ms + 10],
    warmedBytes: 2048,
    remoteRequestsAfterTap: group === 'slow' ? 2 : 0,
  });
  const result = {
    shell: target('shell', 400, 1),
    groups: [target('quick', 200, 0.5), target('slow', 700, 1.75)],
    notes: [],
  } as unknown as PhoneResult;
  const text = phoneSection(result);
  expect(text).toMatch(/^within the shell +\/ +\/shell +400 +1 +400, 410 +2\.0 +0$/m);
  expect(text).toMatch(/^slow +\/ +\/slow +700 +1\.75 +700, 710 +2\.0 +2$/m);
  expect(text).toContain('every group within 1.5x: NO');
});
