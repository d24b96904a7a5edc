import type { CounterItem } from '../content-types';
import { AnimatedCounter } from './AnimatedCounter';

export function CounterGrid({
  items,
  speed = 2500,
}: {
  items: readonly CounterItem[];
  speed?: number;
}) {
  return (
    <div className="counter-grid">
      {items.map((item) => (
        <AnimatedCounter key={item.label} speed={speed} {...item} />
      ))}
    </div>
  );
}
