import { useEffect, useRef, useState } from 'react';
import { useInView } from '../hooks/use-in-view';
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

/**
 * Counts from 0 up to `target` over `speed` ms once it scrolls into view. It renders the final
 * value first (so prerendered HTML and crawlers read the real figure), resets to 0 only when it will
 * animate, and under reduced motion it never moves. Screen readers get the final value once; the
 * moving digits are hidden from them.
 */
export function AnimatedCounter({
  target,
  label,
  speed = 2500,
  pad = 0,
  suffix = '',
}: AnimatedCounterProps) {
  const ref = useRef<HTMLDivElement>(null);
  const inView = useInView(ref);
  const [value, setValue] = useState(target);
  const [armed, setArmed] = useState(false);

  useEffect(() => {
    if (prefersReducedMotion() || target <= 0) return;
    setArmed(true);
    setValue(0);
  }, [target]);

  useEffect(() => {
    if (!armed || !inView) return;
    let frame = 0;
    const start = performance.now();
    const tick = (now: number) => {
      const progress = Math.min(1, (now - start) / Math.max(1, speed));
      const eased = 1 - Math.pow(1 - progress, 3);
      setValue(Math.round(eased * target));
      if (progress < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [armed, inView, speed, target]);

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
        <span className="visually-hidden">{finalText}</span>
      </p>
      <p className="counter__label">{label}</p>
    </div>
  );
}
