import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType, type Location } from 'react-router';

const STORAGE_KEY = 'site:scroll-positions';

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

function readPositions(): Record<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return saved && typeof saved === 'object' ? (saved as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/**
 * Scroll as a visitor expects of a site of pages: a new page starts at the top (or at its #anchor);
 * Back and Forward return to where the visitor was on that page, also after a reload. Positions are
 * kept per history entry while scrolling and saved in session storage when the page is left. Runs
 * when the new page is on screen (navigations wait for the page's code), so there is height to
 * scroll to.
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
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(store));
      } catch {
        // Storage full or blocked: positions are kept for this document only.
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
