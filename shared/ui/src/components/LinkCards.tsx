import { Link } from '../router';
import type { LinkCardItem } from '../content-types';

/** Cards that lead to related pages; the whole card is one link. */
export function LinkCards({ items }: { items: readonly LinkCardItem[] }) {
  return (
    <ul className="link-cards">
      {items.map((item) => (
        <li key={item.to}>
          <Link className="link-card" to={item.to}>
            <h3 className="link-card__title">{item.title}</h3>
            <p className="link-card__text">{item.text}</p>
            <span className="link-card__more" aria-hidden="true">
              Read more →
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
