import type { QuoteItem } from '../content-types';

/** A grid of short statements in the voice of the people a service is for. */
export function QuoteGrid({ items }: { items: readonly QuoteItem[] }) {
  return (
    <ul className="quote-grid">
      {items.map((item) => (
        <li key={item.name}>
          <figure className="quote">
            <blockquote>
              <p>{item.quote}</p>
            </blockquote>
            <figcaption>
              <span className="quote__name">{item.name}</span>
              <span className="quote__role">{item.role}</span>
            </figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
