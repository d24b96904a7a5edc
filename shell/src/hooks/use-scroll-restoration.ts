import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType, type Location } from '@site/ui';

/** Where the positions are kept: in the history entry's own state, beside React Router's. */
const STATE_KEY = 'siteScroll';

/**
 * Every freshly loaded document starts with the location key "default"; keyed by that alone, the
 * scroll position saved on one page would be restored on the next page loaded afresh (and win over
 * its #anchor). Fresh loads are keyed by their URL instead.
 */
const scrollKey = (location: Location): string =>
  location.key === 'default' ? `load:${location.pathname}${location.hash}` : location.key;

/** The element id a `#hash` names; a malformed escape is taken as written. */
function anchorId(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/**
 * The positions kept in the current history entry. Not in session or local storage: those outlive
 * the page and any script of the site's origin can write them, a group's code included; an entry's
 * state belongs to the document that made it. Only finite positions are taken.
 */
function readPositions(): Record<string, number> {
  const state: unknown = window.history.state;
  const saved =
    state && typeof state === 'object' ? (state as Record<string, unknown>)[STATE_KEY] : undefined;
  const positions: Record<string, number> = {};
  if (!saved || typeof saved !== 'object') return positions;
  for (const [key, value] of Object.entries(saved)) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) positions[key] = value;
  }
  return positions;
}

/**
 * Scroll as a visitor expects of a site of pages: a new page starts at the top (or at its #anchor);
 * Back and Forward return to where the visitor was on that page, also after a reload. Positions are
 * kept per history entry while scrolling and saved in the history entry's state when the page is
 * left. Runs when the new page is on screen (navigations wait for the page's code), so there is
 * height to scroll to.
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const current = useRef(scrollKey(location));

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const store = (positions.current ??= readPositions());
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        store[current.current] = window.scrollY;
      });
    };
    const save = () => {
      store[current.current] = window.scrollY;
      const state: unknown = window.history.state;
      try {
        window.history.replaceState(
          { ...(state && typeof state === 'object' ? state : {}), [STATE_KEY]: store },
          '',
        );
      } catch {
        // A state the browser will not keep: positions are kept for this document only.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
    };
  }, []);

  useLayoutEffect(() => {
    const key = scrollKey(location);
    if (current.current === key) {
      // The document's first page: back where the visitor was on a reload or Back, else untouched.
      const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const saved = readPositions()[key];
      if (saved !== undefined && (entry?.type === 'reload' || entry?.type === 'back_forward'))
        window.scrollTo(0, saved);
      return;
    }
    current.current = key;
    const saved = (positions.current ??= readPositions())[key];
    if (navigationType === 'POP' && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    const target = location.hash ? document.getElementById(anchorId(location.hash)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location, navigationType]);
}
