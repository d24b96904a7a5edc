import { Link } from '@site/ui';
import { Logo, company, formatAddress, phoneHref } from '@site/ui';
import { SHELL_PAGES } from '@site/contracts/site';
import type { NavGroup } from '../navigation';
import { NavLinkList } from './NavLinkList';
import { SocialLinks } from './SocialLinks';

/**
 * The footer of every page: contact facts, each group's leading pages, and the copyright year.
 * Each group folds into a native disclosure, so on a phone the footer is a short list of groups;
 * from a laptop's width the stylesheet shows every group's links unfolded, under its title leading
 * to the group's overview (which lists all its pages).
 */
export function Footer({
  groups,
  year = new Date().getFullYear(),
}: {
  groups: NavGroup[];
  year?: number;
}) {
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <div className="footer__about">
          <Logo tone="light" />
          <p>
            {company.tagline.charAt(0).toUpperCase() + company.tagline.slice(1)} since{' '}
            {company.foundingYear}, for organisations in {company.regions.join(' and ')}.
          </p>
          <address>
            {formatAddress()}
            <br />
            {company.hours.label} {company.timeZone.label}
            <br />
            <a href={phoneHref()}>{company.phone.display}</a>
            <br />
            <a href={`mailto:${company.email}`}>{company.email}</a>
          </address>
          <SocialLinks className="footer__social" label="Social media" />
        </div>
        <nav className="footer__nav" aria-label="Footer">
          <div className="footer__group">
            <p className="footer__title">Company</p>
            <ul>
              <li>
                <Link to="/">Home</Link>
              </li>
              <li>
                <Link to="/about">About us</Link>
              </li>
              <li>
                <Link to={SHELL_PAGES.services}>Services</Link>
              </li>
              <li>
                <Link to="/contact">Contact us</Link>
              </li>
            </ul>
          </div>
          {groups.map((group) => (
            <details className="footer__group footer__group--fold" key={group.label}>
              {/* A phone folds the group under its summary; from a laptop's width the summary is
                  not drawn (so it is no focus stop that does nothing) and the plain title shows. */}
              <summary className="footer__title footer__summary">{group.label}</summary>
              <p className="footer__title footer__heading">
                {group.overview ? <Link to={group.overview.to}>{group.label}</Link> : group.label}
              </p>
              <NavLinkList group={group} />
            </details>
          ))}
        </nav>
      </div>
      <div className="container footer__bottom">
        <p>
          © <span data-testid="copyright-year">{year}</span> {company.legalName}. All rights
          reserved.
        </p>
        <p>
          <Link to={SHELL_PAGES.privacy}>Privacy notice</Link>
        </p>
      </div>
    </footer>
  );
}
