import type { StatItem } from '../content-types';

/** Headline figures such as `80%` or `420+`, each with what it measures. */
export function StatGrid({ items }: { items: readonly StatItem[] }) {
  return (
    <dl className="stat-grid">
      {items.map((item) => (
        <div className="stat" key={item.label}>
          <dt className="stat__label">{item.label}</dt>
          <dd className="stat__value">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
