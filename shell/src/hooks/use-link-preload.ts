import { useEffect } from 'react';
import { preloadPath } from '../federation/remotes';

/**
 * Preloads a page group's code when a link into it is hovered or focused: by the time the click
 * lands, the remote's entry and the page's chunk are usually in the cache. One listener on the
 * document covers links in the navbar, the footer and inside remote pages alike.
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
    document.addEventListener('pointerover', onIntent, { passive: true });
    document.addEventListener('focusin', onIntent);
    document.addEventListener('touchstart', onIntent, { passive: true });
    return () => {
      document.removeEventListener('pointerover', onIntent);
      document.removeEventListener('focusin', onIntent);
      document.removeEventListener('touchstart', onIntent);
    };
  }, []);
}
