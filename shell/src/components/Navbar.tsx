import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation } from '@site/ui';
import { Logo, company } from '@site/ui';
import { SHELL_PAGES } from '@site/contracts/site';
import { inGroups, morePages, type NavGroup } from '../navigation';

/** Columns of the desktop services menu. */
const MENU_COLUMNS = 3;
/**
 * A group's pages a phone lists under it: with the group's button and its overview, a panel of at
 * most a dozen entries. The overview lists the rest.
 */
const PHONE_LINKS = 10;
/** A group with more links than this sets them in two columns of its own. */
const WIDE_GROUP = 6;

/** A group's height in menu lines: its title (about one and a half) and its rows of links. */
const lines = (group: NavGroup) =>
  1.5 + (group.links.length > WIDE_GROUP ? Math.ceil(group.links.length / 2) : group.links.length);

/**
 * The services menu's groups in columns of about the same height, whatever groups the manifest
 * brings, without changing their order: the groups are cut into runs, one per column, read top to
 * bottom and left to right, and of every way to cut them the one whose tallest column is shortest
 * is taken (a handful of groups: every cut is tried).
 */
export function menuColumns(groups: readonly NavGroup[], count = MENU_COLUMNS): NavGroup[][] {
  if (groups.length === 0) return [];
  const height = (run: readonly NavGroup[]) => run.reduce((h, g) => h + lines(g), 0);
  let best: NavGroup[][] = [[...groups]];
  let bestHeight = height(groups);
  const cut = (start: number, left: number, columns: NavGroup[][]) => {
    if (left === 1) {
      const all = [...columns, groups.slice(start)];
      const tallest = Math.max(...all.map(height));
      if (tallest < bestHeight) [best, bestHeight] = [all, tallest];
      return;
    }
    for (let end = start + 1; end <= groups.length - left + 1; end++)
      cut(end, left - 1, [...columns, groups.slice(start, end)]);
  };
  cut(0, Math.min(count, groups.length), []);
  return best;
}

/**
 * The site's main navigation: About, a Services menu grouping every service page, and Contact. On
 * narrow screens the whole list folds behind a Menu button. Both toggles are disclosure buttons
 * (aria-expanded/aria-controls); Escape closes the open one and returns focus to its button, arrow
 * keys move between the links of the open services menu, and any navigation closes both.
 */
/** The link to the rest of a long group's pages, on its overview. */
function more(group: NavGroup) {
  const link = morePages(group);
  return link ? (
    // A phone lists the same link first, as the group's overview.
    <li className="mega__wide">
      <Link to={link.to} className="mega__link mega__link--more">
        {link.label}
      </Link>
    </li>
  ) : null;
}

/** A group's overview as a phone lists it, first under the group's button. */
function phoneOverview(group: NavGroup): string {
  const total = group.links.length + group.more;
  return total > PHONE_LINKS
    ? `All ${total.toLocaleString('en-GB')} ${group.label} services`
    : `${group.label} overview`;
}

/**
 * What the arrow keys move through: in a browser, what is drawn at this width (the phone's
 * buttons and the open group, or the desktop menu's links); without layout, the desktop's links.
 */
function menuStops(panel: HTMLElement | null): HTMLElement[] {
  if (!panel) return [];
  const all = Array.from(panel.querySelectorAll<HTMLElement>('a, button'));
  const laidOut = panel.getClientRects().length > 0;
  return all.filter((el) =>
    laidOut ? el.getClientRects().length > 0 : el.tagName === 'A' && !el.closest('.mega__phone'),
  );
}

export function Navbar({ groups }: { groups: NavGroup[] }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [servicesOpen, setServicesOpen] = useState(false);
  // The group a phone has opened in the services panel (the desktop menu shows them all).
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const location = useLocation();
  const headerRef = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const servicesButton = useRef<HTMLButtonElement>(null);
  const servicesPanel = useRef<HTMLDivElement>(null);
  const listId = useId();
  const servicesId = useId();
  const toggleId = (label: string) => `${servicesId}-${label.replace(/\W+/g, '-')}`;

  useEffect(() => {
    setMenuOpen(false);
    setServicesOpen(false);
    setOpenGroup(null);
  }, [location.pathname, location.hash]);

  useEffect(() => {
    if (!servicesOpen) setOpenGroup(null);
  }, [servicesOpen]);

  useEffect(() => {
    if (!menuOpen && !servicesOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (headerRef.current && !headerRef.current.contains(event.target as Node)) {
        setMenuOpen(false);
        setServicesOpen(false);
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [menuOpen, servicesOpen]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      if (servicesOpen && openGroup !== null) {
        // One step back: the open group closes, and its button has the focus.
        document.getElementById(toggleId(openGroup))?.focus();
        setOpenGroup(null);
      } else if (servicesOpen) {
        setServicesOpen(false);
        servicesButton.current?.focus();
      } else if (menuOpen) {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
      return;
    }
    if (!servicesOpen || !['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
    const links = menuStops(servicesPanel.current);
    if (links.length === 0) return;
    const index = links.indexOf(document.activeElement as HTMLElement);
    const inPanel = index >= 0;
    const onButton = document.activeElement === servicesButton.current;
    if (!inPanel && !onButton) return;
    event.preventDefault();
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? links.length - 1
          : event.key === 'ArrowDown'
            ? inPanel
              ? (index + 1) % links.length
              : 0
            : inPanel
              ? (index - 1 + links.length) % links.length
              : links.length - 1;
    links[next]?.focus();
  };

  const inServices =
    location.pathname === SHELL_PAGES.services || inGroups(groups, location.pathname);
  const columns = menuColumns(groups);
  const wide = (column: NavGroup[]) => column.some((g) => g.links.length > WIDE_GROUP);

  return (
    <header
      ref={headerRef}
      className={menuOpen ? 'navbar is-menu-open' : 'navbar'}
      onKeyDown={onKeyDown}
    >
      <div className="container navbar__inner">
        <Link to="/" className="navbar__brand" aria-label={`${company.name}, home`}>
          <Logo />
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="navbar__toggle"
          aria-expanded={menuOpen}
          aria-controls={listId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            {menuOpen ? (
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.25" />
            ) : (
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2.25" />
            )}
          </svg>
          <span>Menu</span>
        </button>
        <nav className="navbar__nav" aria-label="Main">
          <ul className="navbar__list" id={listId}>
            <li>
              <NavLink to="/" end className="navbar__link">
                Home
              </NavLink>
            </li>
            <li>
              <NavLink to="/about" className="navbar__link">
                About
              </NavLink>
            </li>
            <li className="navbar__services">
              <button
                ref={servicesButton}
                type="button"
                className={
                  inServices
                    ? 'navbar__link navbar__link--button active'
                    : 'navbar__link navbar__link--button'
                }
                aria-expanded={servicesOpen}
                aria-controls={servicesId}
                onClick={() => setServicesOpen((open) => !open)}
              >
                Services
                <svg
                  viewBox="0 0 16 16"
                  width="14"
                  height="14"
                  aria-hidden="true"
                  focusable="false"
                >
                  <path d="M3 6l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
                </svg>
              </button>
              <div
                className={openGroup === null ? 'mega' : 'mega has-open-group'}
                id={servicesId}
                ref={servicesPanel}
                hidden={!servicesOpen}
              >
                <p className="mega__all">
                  <NavLink to={SHELL_PAGES.services} end className="mega__link">
                    All services
                  </NavLink>
                </p>
                <div
                  className="mega__grid"
                  // A column holding a long group is twice as wide, wherever the order puts it.
                  style={
                    {
                      '--mega-columns': columns.map((c) => (wide(c) ? '2fr' : '1fr')).join(' '),
                    } as CSSProperties
                  }
                >
                  {columns.map((column, i) => (
                    <div className="mega__column" key={i}>
                      {column.map((group) => {
                        const buttonId = toggleId(group.label);
                        const listId = `${buttonId}-pages`;
                        const open = openGroup === group.label;
                        const classes = ['mega__group'];
                        if (group.links.length > WIDE_GROUP) classes.push('mega__group--wide');
                        if (open) classes.push('is-open');
                        return (
                          <div className={classes.join(' ')} key={group.label}>
                            <p className="mega__title">
                              {/* A phone opens one group at a time; from a laptop's width this
                                  button is not drawn and every group's pages show. */}
                              <button
                                type="button"
                                id={buttonId}
                                className="mega__toggle"
                                aria-expanded={open}
                                aria-controls={listId}
                                onClick={() => setOpenGroup(open ? null : group.label)}
                              >
                                {group.label}
                                <svg
                                  viewBox="0 0 16 16"
                                  width="14"
                                  height="14"
                                  aria-hidden="true"
                                  focusable="false"
                                >
                                  <path
                                    d="M3 6l5 5 5-5"
                                    fill="none"
                                    stroke="currentColor"
                                    strokeWidth="2"
                                  />
                                </svg>
                              </button>
                              {group.overview ? (
                                <NavLink to={group.overview.to} end className="mega__title-link">
                                  {group.label}
                                </NavLink>
                              ) : (
                                <span className="mega__title-text">{group.label}</span>
                              )}
                            </p>
                            <ul id={listId} aria-labelledby={buttonId}>
                              {group.overview && (
                                // On a desktop the heading leads to the overview; a group with
                                // no other page listed (a new one) shows it as its entry too.
                                <li className={group.links.length > 0 ? 'mega__phone' : undefined}>
                                  <NavLink to={group.overview.to} end className="mega__link">
                                    {phoneOverview(group)}
                                  </NavLink>
                                </li>
                              )}
                              {group.links.map((link, i) => (
                                <li
                                  key={link.to}
                                  className={i >= PHONE_LINKS ? 'mega__wide' : undefined}
                                >
                                  <NavLink to={link.to} className="mega__link">
                                    {link.label}
                                  </NavLink>
                                </li>
                              ))}
                              {more(group)}
                            </ul>
                          </div>
                        );
                      })}
                    </div>
                  ))}
                </div>
              </div>
            </li>
            <li>
              <NavLink to="/contact" className="navbar__link navbar__cta">
                Contact
              </NavLink>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
