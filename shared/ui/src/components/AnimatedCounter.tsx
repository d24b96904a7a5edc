import { useEffect, useRef } from 'react';
import { prefersReducedMotion } from '../hooks/use-reduced-motion';
import { watchEntry } from '../hooks/watched-entry';

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

/**
 * Counts from 0 up to `target` over `speed` ms, only for a visitor who watches it scroll into view
 * (`watchEntry`). Anyone else sees the final value: it is the final value in the server's HTML, for
 * a visitor who never scrolls to it, under reduced motion, on screen as the page appears, reached
 * by a jump (an anchor, the End key, a fling), and for one who scrolls past while it counts (it
 * jumps to the end). It reads zero only while a scroll carries it in from just under the screen,
 * where nobody sees it. Screen readers get the final value once; the moving digits are hidden from
 * them.
 */
export function AnimatedCounter({
  target,
  label,
  speed = 2500,
  pad = 0,
  suffix = '',
}: AnimatedCounterProps) {
  const ref = useRef<HTMLDivElement>(null);
  const digits = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || target <= 0 || prefersReducedMotion()) return;
    let frame = 0;
    let counting = false;
    // The digits are written straight into their text node, which React rendered with the final
    // figure: a change is in the very frame the scroll paints (a counter in view never reads 0
    // while a render waits), and counting re-renders nothing.
    const setValue = (n: number) => {
      const text = digits.current?.firstChild;
      if (text) text.nodeValue = format(n, pad, suffix);
    };
    const final = () => {
      cancelAnimationFrame(frame);
      counting = false;
      setValue(target);
    };
    const count = () => {
      counting = true;
      const start = performance.now();
      const tick = (now: number) => {
        const progress = Math.min(1, (now - start) / Math.max(1, speed));
        const eased = 1 - Math.pow(1 - progress, 3);
        setValue(Math.round(eased * target));
        if (progress < 1) frame = requestAnimationFrame(tick);
        else counting = false;
      };
      frame = requestAnimationFrame(tick);
    };
    const watch = watchEntry(el, {
      arm: () => setValue(0),
      enter: count,
      show: final,
      rest: final,
    });
    // One that leaves the screen while it counts is done counting.
    const away = () => {
      if (!counting) return;
      const box = el.getBoundingClientRect();
      if (box.bottom < 0 || box.top > window.innerHeight) final();
    };
    window.addEventListener('scroll', away, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      watch.stop();
      window.removeEventListener('scroll', away);
    };
  }, [speed, target, pad, suffix]);

  const finalText = format(target, pad, suffix);
  return (
    <div className="counter" ref={ref}>
      <p className="counter__value">
        <span
          aria-hidden="true"
          className="counter__digits"
          style={{ minWidth: `${finalText.length}ch` }}
          data-testid="counter-value"
          ref={digits}
        >
          {finalText}
        </span>
        <span className="visually-hidden counter__final">{finalText}</span>
      </p>
      <p className="counter__label">{label}</p>
    </div>
  );
}
