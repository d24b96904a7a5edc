import { useEffect } from 'react';
import { preloadPath } from '../federation/remotes';
import { whenIdle } from '../idle';

/** The mark set when warming starts, so tests and the benchmark can tell its requests apart. */
export const WARMING_MARK = 'site:warming';

/**
 * Whether the page arrived rendered by the site server (read when this module is evaluated, before
 * the client renders anything). Only such pages warm: a bare page is the development server's.
 */
const arrivedRendered =
  typeof document !== 'undefined' && Boolean(document.getElementById('root')?.firstElementChild);

/** What the shell reads of the Network Information API (Chromium only; absent elsewhere). */
interface ConnectionHints {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * Whether warming may spend the visitor's data: not when they asked to save it (`Save-Data`), and
 * not on a 2G-class connection, where the bytes would compete with whatever they do next.
 */
export function networkAllowsWarming(
  connection = (navigator as Navigator & { connection?: ConnectionHints }).connection,
): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !/(^|-)2g$/.test(connection.effectiveType ?? '');
}

/** The mark set when the page has loaded and gone idle: what is fetched after it is not first load. */
export const IDLE_MARK = 'site:idle';

let idle: Promise<void> | undefined;

/** Resolves once the page has loaded and the main thread has a quiet moment (marked `site:idle`). */
export function afterLoadAndIdle(): Promise<void> {
  idle ??= waitForLoadAndIdle().then(() => void performance.mark(IDLE_MARK));
  return idle;
}

function waitForLoadAndIdle(): Promise<void> {
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) =>
          window.addEventListener('load', () => resolve(), { once: true }),
        );
  return loaded.then(() => new Promise<void>((resolve) => whenIdle(resolve, 3000, 300)));
}

/** How long the main thread must go without a long task before warming starts. */
const QUIET_MS = 1000;

/**
 * Resolves once the main thread has gone `QUIET_MS` without a long task (over 50 ms), or at once
 * where the browser does not report long tasks. On a slow phone the page is still hydrating well
 * after `load` and the first idle moment; warming then would compete with the page becoming
 * usable.
 */
export function afterQuietMainThread(quietMs = QUIET_MS): Promise<void> {
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('longtask')
  )
    return Promise.resolve();
  return new Promise((resolve) => {
    let timer = setTimeout(done, quietMs);
    const observer = new PerformanceObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    observer.observe({ type: 'longtask' });
    function done() {
      observer.disconnect();
      resolve();
    }
  });
}

/**
 * Gets the next page ready before the visitor taps, two ways:
 *
 * - on intent: a link to a page of this document's group that is hovered, focused, pressed
 *   (`pointerdown`) or touched starts loading the page's chunk, so by the time the click lands it
 *   is usually in the cache. One listener on the document covers the navbar, the footer and links
 *   inside the pages alike. A link to another owner's page is a page load: its code never loads
 *   here (federation/boundary.ts); the speculation rules fetch its HTML on intent instead.
 * - warming: once the page has loaded and the browser is idle, and the connection allows it (no
 *   Save-Data, not 2G), the links in the viewport are warmed (`federation/warming.ts`, itself
 *   loaded only then): the group's own pages get their code, other owners' pages their HTML.
 *   Phones have no hover, so this is what makes a first tap as quick as a move within the page's
 *   owner. It never starts before `load`, so it takes nothing from the first paint or the first
 *   load.
 */
export function useLinkPreload(): void {
  useEffect(() => {
    const onIntent = (event: Event) => {
      const target = event.target as Element | null;
      const anchor = target?.closest?.('a[href]');
      if (!anchor) return;
      const href = anchor.getAttribute('href') ?? '';
      if (!href.startsWith('/')) return;
      preloadPath(href);
    };
    const intents = ['pointerover', 'focusin', 'pointerdown', 'touchstart'] as const;
    for (const type of intents) document.addEventListener(type, onIntent, { passive: true });

    let stopped = false;
    let stopWarming = () => {};
    if (arrivedRendered)
      void afterLoadAndIdle()
        .then(() => afterQuietMainThread())
        .then(async () => {
          if (stopped || !networkAllowsWarming()) return;
          performance.mark(WARMING_MARK);
          const { warmLinksInView } = await import(
            /* webpackChunkName: "warming" */ '../federation/warming'
          );
          if (!stopped) stopWarming = warmLinksInView();
        });
    return () => {
      stopped = true;
      stopWarming();
      for (const type of intents) document.removeEventListener(type, onIntent);
    };
  }, []);
}
