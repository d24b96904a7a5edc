import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a route change, moves focus to the new page's main heading so screen reader users hear
 * which page they are on, and keyboard users continue from the top of the content. The first
 * render is left alone (the browser starts at the top), and so are in-page anchor jumps.
 */
export function useFocusOnNavigate(ready: boolean): void {
  const location = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!ready || location.hash) return;
    const heading =
      document.querySelector<HTMLElement>('main [data-page-heading]') ??
      document.querySelector<HTMLElement>('main h1');
    heading?.focus({ preventScroll: true });
  }, [location.pathname, ready, location.hash]);
}
