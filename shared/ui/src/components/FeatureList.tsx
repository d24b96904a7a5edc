import type { FeatureItem } from '../content-types';

/** A list of items in up to `columns` columns, as many as the screen is wide enough for. */
interface ColumnListProps<Item, Columns extends number> {
  items: readonly Item[];
  columns?: Columns;
}

/** Cards of features or benefits, each a short title and a sentence or two. */
export function FeatureList({ items, columns = 3 }: ColumnListProps<FeatureItem, 2 | 3 | 4>) {
  return (
    <ul className={`feature-list feature-list--${columns}`}>
      {items.map((item) => (
        <li className="feature" key={item.title}>
          <h3 className="feature__title">{item.title}</h3>
          <p className="feature__text">{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

/** A plain list with check marks, for short items such as technologies or tool types. */
export function CheckList({ items, columns = 1 }: ColumnListProps<string, 1 | 2 | 3>) {
  return (
    <ul className={`check-list check-list--${columns}`}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
