import { preloadPath, remoteForPath } from './remotes';

/** The mark set when warming starts, so tests and the benchmark can tell its requests apart. */
export const WARMING_MARK = 'site:warming';

/**
 * Whether the page arrived rendered (read before the client renders anything). Only such pages
 * warm: a bare page is the development server's, or the one the prerenderer captures, which records
 * every script the page requests as the page's own and would list the warmed groups for preloading.
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

/** Resolves once the page has loaded and the main thread has a quiet moment. */
export function afterLoadAndIdle(): Promise<void> {
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) =>
          window.addEventListener('load', () => resolve(), { once: true }),
        );
  return loaded.then(
    () =>
      new Promise<void>((resolve) => {
        // Safari has no requestIdleCallback: a short timeout after `load` stands in for it.
        if ('requestIdleCallback' in window)
          requestIdleCallback(() => resolve(), { timeout: 3000 });
        else setTimeout(resolve, 300);
      }),
  );
}

/** The site path a link leads to, when it is a page of a remote; otherwise undefined. */
function remotePathOf(anchor: Element): string | undefined {
  const href = anchor.getAttribute('href') ?? '';
  if (!href.startsWith('/') || href.startsWith('//')) return undefined;
  const path = href.split(/[?#]/)[0] ?? href;
  return remoteForPath(path) ? path : undefined;
}

/**
 * Warms the page groups a visitor can reach from what is on screen: every link into a remote's page
 * that is in the viewport gets that remote's entry and the page's chunk fetched, once, so a tap on
 * a phone (which has no hover to start a preload early) finds the code already there. Links that
 * appear later (a navigation, a menu opening) are picked up as they scroll into view. Returns a
 * function that stops watching.
 */
export function warmLinksInView(root: ParentNode = document): () => void {
  if (!arrivedRendered || typeof IntersectionObserver === 'undefined') return () => {};
  performance.mark(WARMING_MARK);
  const warmed = new Set<string>();
  const watched = new WeakSet<Element>();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const path = remotePathOf(entry.target);
      if (!path || warmed.has(path)) continue;
      warmed.add(path);
      preloadPath(path);
    }
  });
  const scan = () => {
    for (const anchor of root.querySelectorAll('a[href^="/"]')) {
      if (watched.has(anchor)) continue;
      watched.add(anchor);
      const path = remotePathOf(anchor);
      if (path && !warmed.has(path)) observer.observe(anchor);
    }
  };
  scan();
  // New links arrive with navigations and opened menus; a scan per batch of changes is enough.
  let pending = false;
  const mutations = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      scan();
    }, 100);
  });
  mutations.observe(document.body, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    mutations.disconnect();
  };
}
