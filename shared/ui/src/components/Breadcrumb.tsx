import { Link } from '../router';
import { SHELL_PAGES } from '@site/contracts/site';

/** A step of the way to the current page. */
export interface Crumb {
  label: string;
  to: string;
}

export interface BreadcrumbProps {
  /** The steps between Home and the current page, e.g. Services, then the page's group. */
  trail: readonly Crumb[];
  /** The current page's title. */
  page: string;
}

/** The hub of every service group: the first step after Home on every service page. */
export const SERVICES_CRUMB: Crumb = { label: 'Services', to: SHELL_PAGES.services };

/**
 * Home › the trail › page, as a navigation landmark: every step on the way is a link, the current
 * page is marked as such and is not.
 */
export function Breadcrumb({ trail, page }: BreadcrumbProps) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link to={SHELL_PAGES.home}>Home</Link>
        </li>
        {trail.map((crumb) => (
          <li key={crumb.to}>
            <Link to={crumb.to}>{crumb.label}</Link>
          </li>
        ))}
        <li aria-current="page">{page}</li>
      </ol>
    </nav>
  );
}
