import { SHELL_PATHS } from '@site/contracts/site';
import { crossesOwner, documentGroup, sitePathOf } from './boundary';
import { preloadPath, remoteForPath } from './remotes';
import { whenIdle } from '../idle';
import { PAGE_LOAD_ATTRIBUTE, insertSpeculationRules } from './speculation-rules';

/** What a link in view gets ready: its page's code (this document's group) or its HTML (another owner). */
type Warm = { kind: 'code'; path: string } | { kind: 'document'; path: string };

/**
 * What warming does for a link: a page of this document's own group gets its code fetched; a page
 * of another owner (a page load) is marked for the speculation rules; anything else is left alone.
 */
function warmFor(anchor: Element): Warm | undefined {
  const path = sitePathOf(anchor);
  if (path === undefined) return undefined;
  // Only pages are fetched ahead: a link such as the preview bar's "End preview" does something
  // when followed, and must not be followed by a prefetch.
  if (crossesOwner(path))
    return SHELL_PATHS.includes(path) || remoteForPath(path)
      ? { kind: 'document', path }
      : undefined;
  const group = documentGroup();
  return group && remoteForPath(path)?.name === group ? { kind: 'code', path } : undefined;
}

/**
 * How many other owners' pages a document fetches ahead because their links came into view: the
 * first few the visitor is shown, not every link a long page scrolls past (each is a page of HTML
 * a phone pays for). Any other link is still fetched on intent (hover, or the press of a tap).
 */
const DOCUMENTS_AHEAD = 6;

/**
 * Whether the visitor can see `element`: in the viewport is not enough, as a closed menu's links
 * are laid out there, hidden or transparent.
 */
const shown = (element: Element): boolean =>
  typeof element.checkVisibility !== 'function' ||
  element.checkVisibility({ opacityProperty: true, visibilityProperty: true });

/**
 * Warms the pages a visitor can reach from what is on screen. A link to a page of this document's
 * group that comes into the viewport gets the page's chunk fetched, once, so a tap on a phone
 * (which has no hover to start a preload early) finds the code already there. A link to another
 * owner's page is marked for the speculation rules: on intent, and at once when it is shown in view
 * (the first few such links), the browser fetches that page's HTML (never its code: that runs only
 * in its own document). Links that appear later (a navigation, a menu opening) are picked up as
 * they come. Returns a function that stops watching. Called by `useLinkPreload` after `load` and
 * idle.
 */
export function warmLinksInView(root: ParentNode = document): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  const warmed = new Set<string>();
  let documentsAhead = 0;
  const watched = new WeakSet<Element>();
  // Links that come into view during a navigation are warmed once the browser is idle again, so
  // warming never competes with the page being shown.
  const idle = (work: () => void) => whenIdle(work, 2000, 300);
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const warm = warmFor(entry.target);
      if (warm?.kind === 'document' && documentsAhead < DOCUMENTS_AHEAD && shown(entry.target)) {
        documentsAhead += 1;
        entry.target.setAttribute(PAGE_LOAD_ATTRIBUTE, 'warm');
      }
      if (warm?.kind !== 'code' || warmed.has(warm.path)) continue;
      warmed.add(warm.path);
      idle(() => preloadPath(warm.path));
    }
  });
  const scan = () => {
    for (const anchor of root.querySelectorAll('a[href]')) {
      if (watched.has(anchor)) continue;
      watched.add(anchor);
      const warm = warmFor(anchor);
      if (warm?.kind === 'document' && !anchor.hasAttribute(PAGE_LOAD_ATTRIBUTE))
        anchor.setAttribute(PAGE_LOAD_ATTRIBUTE, '');
      if (warm && !warmed.has(warm.path)) observer.observe(anchor);
    }
  };
  scan();
  // After the first marks, so the browser reads the rules with the links already marked.
  insertSpeculationRules();
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
