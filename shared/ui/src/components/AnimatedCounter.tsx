import { useEffect, useRef, useState } from 'react';
import { prefersReducedMotion } from '../hooks/use-reduced-motion';

export interface AnimatedCounterProps {
  target: number;
  label: string;
  /** Duration of the count in milliseconds. */
  speed?: number;
  /** Digits to pad to: with 2, 1 shows as `01`. */
  pad?: number;
  suffix?: string;
}

const format = (n: number, pad: number, suffix: string) =>
  `${String(n).padStart(pad, '0')}${suffix}`;

/** How far under the screen a counter is set to zero, ready to count when it comes into view. */
const BAND_PX = 240;

/**
 * - `rest`: the final value; set to zero when it comes close under the screen;
 * - `armed`: zero, just under the screen, where nobody sees it change;
 * - `counting`: on screen, counting up;
 * - `done`: the final value, for good.
 */
type Phase = 'rest' | 'armed' | 'counting' | 'done';

/**
 * Counts from 0 up to `target` over `speed` ms as a visitor scrolls down to it. Only a visitor who
 * watches it count sees anything but the final value: it is the final value in the server's HTML,
 * for a visitor who never scrolls to it, under reduced motion, on screen as the page appears, and
 * for one who scrolls past while it counts (it jumps to the end). It is set to zero only while it
 * sits in a band just under the screen, so the change is never seen. Screen readers get the final
 * value once; the moving digits are hidden from them.
 */
export function AnimatedCounter({
  target,
  label,
  speed = 2500,
  pad = 0,
  suffix = '',
}: AnimatedCounterProps) {
  const ref = useRef<HTMLDivElement>(null);
  const phase = useRef<Phase>('rest');
  const [value, setValue] = useState(target);

  useEffect(() => {
    const el = ref.current;
    if (!el || target <= 0 || prefersReducedMotion() || typeof IntersectionObserver === 'undefined')
      return;
    let frame = 0;
    const settle = (next: 'rest' | 'done') => {
      cancelAnimationFrame(frame);
      phase.current = next;
      setValue(target);
    };
    const count = () => {
      phase.current = 'counting';
      const start = performance.now();
      const tick = (now: number) => {
        const progress = Math.min(1, (now - start) / Math.max(1, speed));
        const eased = 1 - Math.pow(1 - progress, 3);
        setValue(Math.round(eased * target));
        if (progress < 1) frame = requestAnimationFrame(tick);
        else phase.current = 'done';
      };
      frame = requestAnimationFrame(tick);
    };

    // Close: on screen or in the band under it.
    const close = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (!entry.isIntersecting) {
          if (phase.current === 'armed') settle('rest');
        } else if (phase.current === 'rest') {
          // Already on screen (the page appeared with it in view, or a jump landed on it): the
          // visitor has seen the final value, which stays.
          if (entry.boundingClientRect.top < window.innerHeight) settle('done');
          else {
            phase.current = 'armed';
            setValue(0);
          }
        }
      },
      { rootMargin: `0px 0px ${BAND_PX}px 0px` },
    );
    // Seen: on screen.
    const seen = new IntersectionObserver(([entry]) => {
      if (!entry) return;
      if (entry.isIntersecting) {
        if (phase.current === 'armed') count();
        else if (phase.current === 'rest') settle('done');
      } else if (phase.current === 'counting') settle('done');
    });
    close.observe(el);
    seen.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      close.disconnect();
      seen.disconnect();
    };
  }, [speed, target]);

  const finalText = format(target, pad, suffix);
  return (
    <div className="counter" ref={ref}>
      <p className="counter__value">
        <span
          aria-hidden="true"
          className="counter__digits"
          style={{ minWidth: `${finalText.length}ch` }}
          data-testid="counter-value"
        >
          {format(value, pad, suffix)}
        </span>
        <span className="visually-hidden counter__final">{finalText}</span>
      </p>
      <p className="counter__label">{label}</p>
    </div>
  );
}
