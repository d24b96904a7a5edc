import { Link } from 'react-router';

export interface BreadcrumbProps {
  /** The service group, e.g. `Custom Development`. */
  group: string;
  /** The current page's title. */
  page: string;
}

/** Home › Services › group › page, as a navigation landmark with the current page marked. */
export function Breadcrumb({ group, page }: BreadcrumbProps) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link to="/">Home</Link>
        </li>
        <li>
          <Link to="/#services">Services</Link>
        </li>
        <li>{group}</li>
        <li aria-current="page">{page}</li>
      </ol>
    </nav>
  );
}
