import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@site/ui';
import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';
import { Footer } from '../components/Footer';
import { Navbar, menuColumns } from '../components/Navbar';
import { homeContent } from '../content/home';
import { NavGroupsContext } from '../hooks/use-nav-groups';
import { groupCards, navGroups } from '../navigation';
import HomePage from '../pages/HomePage';
import ServicesPage from '../pages/ServicesPage';

/** The site table's prefixes, in its order: the one order the groups appear in everywhere. */
const PREFIXES = SITE_REMOTES.flatMap((r) => r.prefixes);
const label = (prefix: string) => `Group ${prefix}`;

const route = (path: string, group: string, title = `Page ${path}`) => ({
  path,
  title,
  group,
  navLabel: title,
  description: `A description of ${path} that is long enough for the contract.`,
});

/**
 * The live manifest as a deploy may leave it: the remotes in another order than the site table's,
 * each remote's routes with its later prefix first, and a group the site table does not know yet.
 */
function scrambledManifest(): DeploymentManifest {
  const remotes: RemoteDeployment[] = SITE_REMOTES.map((r) => ({
    name: r.name,
    entry: `http://localhost:${r.port}/1.0.0/remoteEntry.js`,
    version: '1.0.0',
    prefixes: r.prefixes,
    routes: [...r.prefixes]
      .reverse()
      .flatMap((p) => [route(`${p}/first`, label(p)), route(p, label(p), `Overview of ${p}`)]),
  }));
  const newcomer: RemoteDeployment = {
    name: 'newcomer',
    entry: 'http://localhost:3999/1.0.0/remoteEntry.js',
    version: '1.0.0',
    prefixes: ['/newcomer'],
    routes: [route('/newcomer', 'Newcomer'), route('/newcomer/one', 'Newcomer')],
  };
  return {
    schemaVersion: 1,
    generatedAt: '2026-11-25T00:00:00.000Z',
    remotes: [newcomer, ...remotes.reverse()],
  };
}

const expected = [...PREFIXES.map(label), 'Newcomer'];
const groups = navGroups(scrambledManifest());

describe('the service groups appear in the site table’s order everywhere', () => {
  it('in the groups the layout takes from the live manifest, each with its overview apart', () => {
    expect(groups.map((g) => g.label)).toEqual(expected);
    const first = groups[0]!;
    expect(first.overview).toMatchObject({ to: PREFIXES[0], label: `Overview of ${PREFIXES[0]}` });
    expect(first.links.map((l) => l.to)).toEqual([`${PREFIXES[0]}/first`]);
  });

  it('in the services menu, read in order, each group’s title leading to its overview', async () => {
    render(
      <MemoryRouter>
        <Navbar groups={groups} />
      </MemoryRouter>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Services' }));
    const menu = document.querySelector('.mega') as HTMLElement;
    const titles = within(menu).getAllByRole('link', { name: /^(Group \S+|Newcomer)$/ });
    expect(titles.map((a) => a.textContent)).toEqual(expected);
    expect(titles.map((a) => a.getAttribute('href'))).toEqual([...PREFIXES, '/newcomer']);
    expect(within(menu).getByRole('link', { name: 'All services' })).toHaveAttribute(
      'href',
      '/services',
    );
  });

  it('in columns of the menu, whatever the number of groups, none included', () => {
    expect(menuColumns([])).toEqual([]);
    expect(menuColumns(groups.slice(0, 1))).toEqual([groups.slice(0, 1)]);
    expect(
      menuColumns(groups)
        .flat()
        .map((g) => g.label),
    ).toEqual(expected);
  });

  it('in the footer', () => {
    render(
      <MemoryRouter>
        <Footer groups={groups} />
      </MemoryRouter>,
    );
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    const titles = [...footer.querySelectorAll('summary')].map((s) => s.textContent);
    expect(titles).toEqual(expected);
  });

  it('on the services page, each group under its heading linked to its overview', () => {
    render(
      <MemoryRouter>
        <NavGroupsContext value={groups}>
          <ServicesPage />
        </NavGroupsContext>
      </MemoryRouter>,
    );
    const headings = screen.getAllByRole('heading', { level: 2 }).filter((h) => h.closest('li'));
    expect(headings.map((h) => h.textContent)).toEqual(expected);
    expect(within(headings[0]!).getByRole('link')).toHaveAttribute('href', PREFIXES[0]);
  });

  it('in the home page’s cards, each leading to its group’s overview, a newcomer’s too', () => {
    render(
      <MemoryRouter>
        <NavGroupsContext value={groups}>
          <HomePage />
        </NavGroupsContext>
      </MemoryRouter>,
    );
    const section = document.getElementById('services') as HTMLElement;
    const cards = within(section).getAllByRole('link');
    expect(cards.map((a) => a.getAttribute('href'))).toEqual([...PREFIXES, '/newcomer']);
    // A group the home page's words do not cover yet is shown by its overview's title and description.
    expect(cards.at(-1)).toHaveTextContent(/^Page \/newcomerA description of \/newcomer/);
  });

  it('in the cards written for the home page, whatever groups the site table holds today', () => {
    // The words are the shell's; a group made since has none yet, and the page draws its card from
    // the manifest (above). Those there are follow the site table's order.
    const written = homeContent.services.items.map((item) => item.to);
    expect(written).toEqual(PREFIXES.filter((p) => written.includes(p)));
    expect(groupCards([], homeContent.services.items)).toEqual(homeContent.services.items);
  });
});
