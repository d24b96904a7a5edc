import { preloadPath, remoteForPath } from './remotes';

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
 * appear later (a navigation, a menu opening) are picked up as they come into view. Returns a
 * function that stops watching. Called by `useLinkPreload` after `load` and idle.
 */
export function warmLinksInView(root: ParentNode = document): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  const warmed = new Set<string>();
  const watched = new WeakSet<Element>();
  // Links that come into view during a navigation are warmed once the browser is idle again, so
  // warming never competes with the page being shown.
  const idle = (work: () => void) =>
    'requestIdleCallback' in window
      ? requestIdleCallback(work, { timeout: 2000 })
      : setTimeout(work, 300);
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const path = remotePathOf(entry.target);
      if (!path || warmed.has(path)) continue;
      warmed.add(path);
      idle(() => preloadPath(path));
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
