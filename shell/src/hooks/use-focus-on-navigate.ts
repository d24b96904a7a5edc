import { useEffect, useRef } from 'react';
import { useLocation } from '@site/ui';

/**
 * After a route change, moves focus to the new page's main heading so screen reader users hear
 * which page they are on, and keyboard users continue from the top of the content. The page the
 * visitor arrives on is left alone (the browser starts at the top), and so are in-page anchor jumps.
 * Comparing with the previous path (not a first-render flag) keeps this right under StrictMode,
 * which runs effects twice.
 */
export function useFocusOnNavigate(): void {
  const location = useLocation();
  const previous = useRef(location.pathname);
  useEffect(() => {
    if (previous.current === location.pathname) return;
    previous.current = location.pathname;
    if (location.hash) return;
    const heading =
      document.querySelector<HTMLElement>('main [data-page-heading]') ??
      document.querySelector<HTMLElement>('main h1');
    heading?.focus({ preventScroll: true });
  }, [location.pathname, location.hash]);
}
