import { useEffect } from 'react';
import { prefersReducedMotion, watchEntry } from '@site/ui';

const SELECTOR = '[data-aos]';

/**
 * The animate-on-scroll effect, started once when the site starts: a section marked `data-aos`
 * fades up only when the visitor watches it scroll into view. It is hidden only while a scroll
 * carries it in from just under the screen (`watchEntry`), so a section reached any other way (an
 * anchor, find-in-page, the End key, a fling, printing, a capture tool) is simply there. Sections
 * added by later navigations join in; under reduced motion nothing is touched. The classes are
 * those of the CSS in the shared styles (`aos-init` hides, `aos-animate` plays the entrance).
 */
export function useAnimateOnScroll(): void {
  useEffect(() => {
    if (prefersReducedMotion()) return;
    const watched = new Map<Element, () => void>();

    const scan = () => {
      for (const el of document.querySelectorAll<HTMLElement>(SELECTOR)) {
        if (watched.has(el)) continue;
        const shown = () => el.classList.remove('aos-init', 'aos-animate');
        const { stop } = watchEntry(el, {
          arm: () => el.classList.add('aos-init'),
          enter: () => el.classList.add('aos-animate'),
          show: shown,
          rest: shown,
        });
        watched.set(el, stop);
      }
      // A section a navigation took away is no longer watched.
      for (const [el, stop] of watched) {
        if (el.isConnected) continue;
        stop();
        watched.delete(el);
      }
    };

    scan();
    const root = document.getElementById('root') ?? document.body;
    const added = new MutationObserver(scan);
    added.observe(root, { childList: true, subtree: true });
    return () => {
      added.disconnect();
      for (const stop of watched.values()) stop();
    };
  }, []);
}
