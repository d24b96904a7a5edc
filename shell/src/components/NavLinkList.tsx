import { Link } from '@site/ui';
import { morePages, type NavGroup } from '../navigation';

/**
 * A group's leading pages as a list of links (the footer's groups, the 404 page's site map), and
 * a link to its overview for the rest when it has more.
 */
export function NavLinkList({ group }: { group: NavGroup }) {
  const more = morePages(group);
  return (
    <ul>
      {group.links.map((link) => (
        <li key={link.to}>
          <Link to={link.to}>{link.label}</Link>
        </li>
      ))}
      {more ? (
        <li>
          <Link to={more.to} className="link-more">
            {more.label}
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
