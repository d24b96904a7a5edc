import type { Browser } from '@playwright/test';
import { SITE, remoteOriginFor, type Site } from './site';
import { PHONE_CONDITIONS, throttle, timeUntilHeading } from './throttle';
import { DESKTOP, errorMessage, log, median, withPage, withTimeout } from './util';

/**
 * First navigation into a group not loaded yet, on a desktop (1280x720) with the phone's CPU and
 * network: the footer link on /about into Data Science, clicked with `element.click()` (no pointer
 * movement, no focus) right after the page is ready, so neither hover preload nor warming (which
 * waits for load and idle) can have fetched the group; after a hover and 1 s; and, the baseline,
 * About to Home within the shell.
 */
const NAV = {
  from: '/about',
  groupLink: 'footer a[href="/services/data-analytics/data-science"]',
  groupPath: '/services/data-analytics/data-science',
  shellLink: 'header nav[aria-label="Main"] a[href="/"]',
  shellPath: '/',
  hoverWaitMs: 1000,
  timeout: 30_000,
};

type Scenario = 'noHover' | 'hover' | 'shell';

export interface NavigationResult {
  from: string;
  into: string;
  shellBaseline: string;
  throttling: typeof PHONE_CONDITIONS;
  noHoverMs: number | null;
  hoverMs: number | null;
  shellMs: number | null;
  ratioNoHover: number | null;
  ratioHover: number | null;
  samples: Record<Scenario, number[]>;
  notes: string[];
}

async function navigationOnce(browser: Browser, site: Site, scenario: Scenario) {
  return withPage(browser, { ...DESKTOP, timeout: NAV.timeout }, async (page, context) => {
    const groupOrigin = remoteOriginFor(NAV.groupPath, site);
    let groupRequestsBeforeClick = 0;
    let clicked = false;
    page.on('request', (req) => {
      if (!clicked && groupOrigin && req.url().startsWith(groupOrigin))
        groupRequestsBeforeClick += 1;
    });
    await page.goto(`${SITE}${NAV.from}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('html[data-app-ready="true"] main h1');
    await throttle(context, page);
    const selector = scenario === 'shell' ? NAV.shellLink : NAV.groupLink;
    const target = scenario === 'shell' ? NAV.shellPath : NAV.groupPath;
    const expected = site.headings[target];
    if (!expected) throw new Error(`no heading known for ${target}`);
    if (scenario === 'hover') {
      await page.locator(selector).hover();
      await page.waitForTimeout(NAV.hoverWaitMs);
    }
    const before = groupRequestsBeforeClick;
    clicked = true;
    const ms = await timeUntilHeading(page, expected, NAV.timeout, () =>
      // A click event only: no pointer movement, no focus.
      page.$eval(selector, (a) => (a as HTMLElement).click()),
    );
    return { ms, groupRequestsBeforeClick: before };
  });
}

export async function measureNavigation(
  browser: Browser,
  site: Site,
  runs: number,
): Promise<NavigationResult> {
  const samples: Record<Scenario, number[]> = { noHover: [], hover: [], shell: [] };
  const notes: string[] = [];
  for (let run = 0; run < runs; run++) {
    for (const scenario of ['noHover', 'hover', 'shell'] as const) {
      try {
        const r = await withTimeout(
          navigationOnce(browser, site, scenario),
          90_000,
          `navigation ${scenario}`,
        );
        samples[scenario].push(r.ms);
        if (scenario === 'noHover' && r.groupRequestsBeforeClick)
          notes.push(
            `no-hover run ${run + 1}: the group's remote was requested ${r.groupRequestsBeforeClick} times before the click`,
          );
        if (scenario === 'hover' && !r.groupRequestsBeforeClick)
          notes.push(`hover run ${run + 1}: hovering requested nothing from the group's remote`);
        log(`navigation ${scenario} run ${run + 1}: ${r.ms.toFixed(0)} ms`);
      } catch (error) {
        notes.push(`${scenario} run ${run + 1}: ${errorMessage(error)}`);
        log(`navigation ${scenario} run ${run + 1}: FAILED ${errorMessage(error)}`);
      }
    }
  }
  const noHover = median(samples.noHover);
  const hover = median(samples.hover);
  const shell = median(samples.shell);
  return {
    from: NAV.from,
    into: NAV.groupPath,
    shellBaseline: `${NAV.from} -> ${NAV.shellPath}`,
    throttling: PHONE_CONDITIONS,
    noHoverMs: noHover,
    hoverMs: hover,
    shellMs: shell,
    ratioNoHover: noHover != null && shell ? noHover / shell : null,
    ratioHover: hover != null && shell ? hover / shell : null,
    samples,
    notes,
  };
}
