import { useEffect } from 'react';
import { preloadPath } from '../federation/remotes';
import { afterLoadAndIdle, networkAllowsWarming, warmLinksInView } from '../federation/warming';

/**
 * Gets a page group's code ready before the visitor enters it, two ways:
 *
 * - on intent: a link into a group that is hovered, focused, pressed (`pointerdown`) or touched
 *   starts loading the remote's entry and the page's chunk, so by the time the click lands they are
 *   usually in the cache. One listener on the document covers the navbar, the footer and links
 *   inside remote pages alike.
 * - warming: once the page has loaded and the browser is idle, and the connection allows it (no
 *   Save-Data, not 2G), the groups of the links in the viewport are fetched. Phones have no hover,
 *   so this is what makes a first tap into a group as quick as a navigation within the shell. It
 *   never starts before `load`, so it takes nothing from the first paint or the first load.
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
    void afterLoadAndIdle().then(() => {
      if (!stopped && networkAllowsWarming()) stopWarming = warmLinksInView();
    });
    return () => {
      stopped = true;
      stopWarming();
      for (const type of intents) document.removeEventListener(type, onIntent);
    };
  }, []);
}
