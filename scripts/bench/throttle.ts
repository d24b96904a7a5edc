import type { BrowserContext, Page } from '@playwright/test';

/** Slow 4G and a 4x slower CPU, the profile Lighthouse's mobile run simulates. */
export const PHONE_CONDITIONS = {
  cpuSlowdown: 4,
  network: { latency: 150, downloadKbps: 1600, uploadKbps: 750 },
};

/** Throttles one page through the DevTools protocol (Chromium only). */
export async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const { network, cpuSlowdown } = PHONE_CONDITIONS;
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: network.latency,
    downloadThroughput: (network.downloadKbps * 1000) / 8,
    uploadThroughput: (network.uploadKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
}

/**
 * Runs `act` (a click or a tap) and resolves with the time from the first pointer, touch or click
 * event it caused to the frame that paints a main heading reading `expected`.
 */
export async function timeUntilHeading(
  page: Page,
  expected: string,
  timeoutMs: number,
  act: () => Promise<void>,
): Promise<number> {
  // Armed in the page first (evaluate awaits a returned promise, so it is kept on window instead),
  // then the tap or click, then the result.
  await page.evaluate(
    ({ expected, timeoutMs }) => {
      (window as { __benchNav?: Promise<number> }).__benchNav = new Promise<number>(
        (resolve, reject) => {
          // No named functions in here: the bundler that runs this script would wrap them in a
          // helper the page does not have.
          const state = { start: null as number | null };
          for (const type of ['pointerdown', 'touchstart', 'click'])
            document.addEventListener(type, () => (state.start ??= performance.now()), {
              capture: true,
              once: true,
            });
          const observer = new MutationObserver(() => {
            const text = (document.querySelector('main h1')?.textContent ?? '').replace(
              /\s+/g,
              ' ',
            );
            if (state.start == null || text.trim() !== expected) return;
            observer.disconnect();
            clearTimeout(timer);
            const from = state.start;
            // The frame that paints the new heading.
            requestAnimationFrame(() => resolve(performance.now() - from));
          });
          // A tap that is a page load ends this document: the start is kept for the next one.
          window.addEventListener('pagehide', () => {
            if (state.start != null)
              sessionStorage.setItem(
                'bench-tap-start',
                String(performance.timeOrigin + state.start),
              );
          });
          const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`the heading "${expected}" did not show within ${timeoutMs} ms`));
          }, timeoutMs);
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        },
      );
    },
    { expected, timeoutMs },
  );
  await act();
  try {
    return await page.evaluate(() => (window as { __benchNav?: Promise<number> }).__benchNav ?? -1);
  } catch (error) {
    if (!/context was destroyed|navigat/i.test(String(error))) throw error;
  }
  // The tap was a page load: the new document's heading is in its HTML, painted with its first
  // contentful paint; the time runs from the touch in the old document (the clocks share an epoch).
  await page.waitForFunction(
    (text) =>
      (document.querySelector('main h1')?.textContent ?? '').replace(/\s+/g, ' ').trim() === text &&
      performance.getEntriesByName('first-contentful-paint').length > 0,
    expected,
    { timeout: timeoutMs },
  );
  return page.evaluate(() => {
    const start = Number(sessionStorage.getItem('bench-tap-start'));
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    return start > 0 ? performance.timeOrigin + paint - start : -1;
  });
}
