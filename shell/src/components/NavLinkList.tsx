import { Link } from 'react-router';
import type { NavLink } from '../navigation';

/** A group's pages as a list of links (the footer's groups, the 404 page's site map). */
export function NavLinkList({ links }: { links: NavLink[] }) {
  return (
    <ul>
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to}>{link.label}</Link>
        </li>
      ))}
    </ul>
  );
}
