import { useEffect } from 'react';
import { prefersReducedMotion } from '@site/shared';

/**
 * Starts the animate-on-scroll library once, when the site starts, after the first paint and only
 * for visitors who have not asked for reduced motion. Its code is loaded late so it never delays
 * the first render, and content is visible until it has started (see base.css).
 */
export function useAnimateOnScroll(): void {
  useEffect(() => {
    if (prefersReducedMotion()) return;
    let cancelled = false;
    const start = () => {
      void import('aos').then(({ default: AOS }) => {
        if (cancelled) return;
        AOS.init({
          once: true,
          duration: 600,
          easing: 'ease-out',
          offset: 40,
          disableMutationObserver: false,
        });
      });
    };
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(start);
    return () => {
      cancelled = true;
    };
  }, []);
}
