import { useEffect } from 'react';
import { prefersReducedMotion } from '@site/ui';

const SELECTOR = '[data-aos]:not(.aos-init)';
/** How far into the viewport an element must come before it fades in, in pixels. */
const OFFSET = 40;

/**
 * The animate-on-scroll effect, started once when the site starts: sections marked `data-aos` that
 * are still below the fold fade up as they scroll into view. What is on screen when a page appears
 * is never hidden (so the first paint and the largest element are not held back), sections added by
 * later navigations join in, and visitors who prefer reduced motion get no motion at all. The
 * classes are those of the CSS in the shared styles (`aos-init`, `aos-animate`).
 */
export function useAnimateOnScroll(): void {
  useEffect(() => {
    if (prefersReducedMotion() || !('IntersectionObserver' in window)) return;

    const reveal = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.classList.add('aos-animate');
          reveal.unobserve(entry.target);
        }
      },
      { rootMargin: `0px 0px -${OFFSET}px 0px` },
    );

    const scan = () => {
      for (const el of document.querySelectorAll<HTMLElement>(SELECTOR)) {
        const below = el.getBoundingClientRect().top > window.innerHeight - OFFSET;
        el.classList.add('aos-init');
        if (below) reveal.observe(el);
        else el.classList.add('aos-animate');
      }
    };

    scan();
    const root = document.getElementById('root') ?? document.body;
    const added = new MutationObserver(() => scan());
    added.observe(root, { childList: true, subtree: true });
    return () => {
      added.disconnect();
      reveal.disconnect();
    };
  }, []);
}
