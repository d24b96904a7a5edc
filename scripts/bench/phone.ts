import type { Browser, Page } from '@playwright/test';
import { WARMING_MARK } from './bytes';
import { SITE, type Site } from './site';
import { PHONE_CONDITIONS, throttle, timeUntilHeading } from './throttle';
import { errorMessage, gzipSize, log, median, withPage, withTimeout } from './util';

/**
 * The first tap into each page group on a phone: touch and no hover (a 390x844 mobile viewport),
 * 4x CPU and slow 4G from the start. The visitor opens `/`, the page settles (load, idle, and
 * whatever warming does), the link is scrolled into view if it is not already, the page settles
 * again, and the link is tapped. The time runs from the touch to the frame that paints the new
 * page's heading, in a fresh browser context each time; the baseline is a tap within the shell
 * (/ to /about). Also recorded: the bytes warming fetched before the tap (gzip), and any request
 * to a remote's origin from the tap until the heading shows (none when warming did its job).
 * And a tap from one group into another: from the first group's overview into the second's pages.
 */

const FROM = '/';
const SHELL_TARGET = '/about';
const TIMEOUT = 45_000;
/** A phone's browser: touch and no hover, a 390x844 mobile viewport. */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const QUIET_MS = 700;

export interface PhoneTarget {
  group: string;
  from: string;
  path: string | null;
  medianMs: number | null;
  ratio: number | null;
  samples: number[];
  warmedBytes: number | null;
  remoteRequestsAfterTap: number;
}

export interface PhoneResult {
  from: string;
  throttling: typeof PHONE_CONDITIONS;
  viewport: { width: number; height: number };
  shell: PhoneTarget;
  groups: PhoneTarget[];
  notes: string[];
}

/** Resolves once no request has been in flight for `QUIET_MS`. */
async function settle(page: Page, inFlight: () => number, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (inFlight() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) return;
    await page.waitForTimeout(100);
  }
}

/**
 * Marks the first visible link on the page to one of `paths`; returns its path. Where there is
 * none, a footer group folded on a phone that holds one is opened first, as a visitor would.
 */
function markTarget(page: Page, paths: string[]): Promise<string | null> {
  // No named functions in here: the bundler that runs this script would wrap them in a helper
  // the page does not have.
  return page.evaluate((wanted) => {
    const links = [...document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')].filter((a) =>
      wanted.includes(a.getAttribute('href') ?? ''),
    );
    // Laid out and shown: not a link of a closed menu or a folded footer group.
    if (!links.some((a) => a.checkVisibility({ visibilityProperty: true }))) {
      const fold = links.map((a) => a.closest('footer details')).find((d) => d !== null);
      if (fold) (fold as HTMLDetailsElement).open = true;
    }
    for (const a of links) {
      if (a.getClientRects().length === 0 || !a.checkVisibility({ visibilityProperty: true }))
        continue;
      a.dataset.benchTarget = 'true';
      return a.getAttribute('href');
    }
    return null;
  }, paths);
}

async function tapOnce(browser: Browser, site: Site, from: string, paths: string[]) {
  return withPage(browser, { ...PHONE, timeout: TIMEOUT }, async (page, context) => {
    await throttle(context, page);
    const remoteOrigins = site.remotes.map((r) => r.origin);
    let pending = 0;
    let tapped = false;
    let remoteRequestsAfterTap = 0;
    const bodies = new Map<string, Promise<number>>();
    page.on('request', (req) => {
      pending += 1;
      if (tapped && remoteOrigins.some((o) => req.url().startsWith(o))) remoteRequestsAfterTap += 1;
    });
    const done = () => (pending = Math.max(0, pending - 1));
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script')
        bodies.set(
          res.url(),
          res.body().then(gzipSize, () => 0),
        );
    });
    await page.goto(`${SITE}${from}`, { waitUntil: 'load', timeout: TIMEOUT });
    await page.waitForSelector('html[data-app-ready="true"] main h1');
    await settle(page, () => pending);
    const path = await markTarget(page, paths);
    if (!path)
      throw new Error(`no visible link on ${from} to any of ${paths.slice(0, 3).join(', ')}…`);
    const target = page.locator('[data-bench-target]');
    await target.scrollIntoViewIfNeeded();
    await settle(page, () => pending);
    const expected = site.headings[path];
    if (!expected) throw new Error(`no heading known for ${path}`);
    const warmedUrls = await page.evaluate((mark) => {
      const start = performance.getEntriesByName(mark)[0]?.startTime;
      if (start == null) return [];
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime >= start)
        .map((e) => e.name);
    }, WARMING_MARK);
    let warmedBytes = 0;
    for (const url of warmedUrls) warmedBytes += (await bodies.get(url)) ?? 0;
    tapped = true;
    const ms = await timeUntilHeading(page, expected, TIMEOUT, () => target.tap());
    // Counted until the page is on screen: what the new page then warms for its own links is not
    // part of the tap.
    tapped = false;
    await settle(page, () => pending, 5000);
    return { ms, path, warmedBytes, remoteRequestsAfterTap };
  });
}

export async function measurePhone(
  browser: Browser,
  site: Site,
  runs: number,
): Promise<PhoneResult> {
  const notes: string[] = [];
  const [first, second] = site.remotes;
  const targets = [
    { group: 'shell', from: FROM, paths: [SHELL_TARGET] },
    ...site.remotes.map((r) => ({ group: r.name, from: FROM, paths: r.paths })),
    ...(first && second
      ? [
          {
            group: `${first.name} → ${second.name}`,
            from: first.prefixes[0] ?? FROM,
            paths: second.paths,
          },
        ]
      : []),
  ];
  const collected = targets.map((t) => ({
    ...t,
    path: null as string | null,
    samples: [] as number[],
    warmed: [] as number[],
    after: 0,
  }));
  for (let run = 0; run < runs; run++) {
    for (const t of collected) {
      try {
        const r = await withTimeout(
          tapOnce(browser, site, t.from, t.paths),
          120_000,
          `tap ${t.group}`,
        );
        t.path = r.path;
        t.samples.push(r.ms);
        t.warmed.push(r.warmedBytes);
        t.after = Math.max(t.after, r.remoteRequestsAfterTap);
        log(
          `phone tap ${t.group} (${r.path}) run ${run + 1}: ${r.ms.toFixed(0)} ms, warmed ${(r.warmedBytes / 1024).toFixed(1)} KB, ${r.remoteRequestsAfterTap} remote request(s) after the tap`,
        );
      } catch (error) {
        notes.push(`${t.group} run ${run + 1}: ${errorMessage(error)}`);
        log(`phone tap ${t.group} run ${run + 1}: FAILED ${errorMessage(error)}`);
      }
    }
  }
  const shellMs = median(collected[0]!.samples);
  const result = (t: (typeof collected)[number]): PhoneTarget => {
    const ms = median(t.samples);
    return {
      group: t.group,
      from: t.from,
      path: t.path,
      medianMs: ms,
      ratio: ms != null && shellMs ? ms / shellMs : null,
      samples: t.samples,
      warmedBytes: median(t.warmed),
      remoteRequestsAfterTap: t.after,
    };
  };
  return {
    from: FROM,
    throttling: PHONE_CONDITIONS,
    viewport: { width: 390, height: 844 },
    shell: result(collected[0]!),
    groups: collected.slice(1).map(result),
    notes,
  };
}
