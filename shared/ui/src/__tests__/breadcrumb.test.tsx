import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../router';
import type { RouteTable } from '@site/contracts';
import { Breadcrumb } from '../components/Breadcrumb';
import { ServicePage, servicePages } from '../components/ServicePage';

const crumbs = () =>
  within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    .getAllByRole('listitem')
    .map((li) => {
      const link = within(li).queryByRole('link');
      return link
        ? `${li.textContent} -> ${link.getAttribute('href')}`
        : `${li.textContent} (here)`;
    });

describe('Breadcrumb', () => {
  it('links every crumb on the way: Home, Services, the group’s overview; the page is marked current', () => {
    render(
      <MemoryRouter>
        <Breadcrumb
          trail={[
            { label: 'Services', to: '/services' },
            { label: 'Data Analytics', to: '/services/data-analytics' },
          ]}
          page="Big Data"
        />
      </MemoryRouter>,
    );
    expect(crumbs()).toEqual([
      'Home -> /',
      'Services -> /services',
      'Data Analytics -> /services/data-analytics',
      'Big Data (here)',
    ]);
    expect(screen.getByText('Big Data')).toHaveAttribute('aria-current', 'page');
  });
});

const content = {
  lead: 'Data at scale.',
  intro: { heading: 'What it is', paragraphs: ['Body'] },
  sections: [],
};

/** A group of two pages under one prefix, with its overview at the prefix itself. */
const table: RouteTable = {
  remote: 'data',
  prefixes: ['/services/data-analytics'],
  routes: [
    {
      path: '/services/data-analytics',
      title: 'Data Analytics',
      group: 'Data Analytics',
      navLabel: 'Overview',
      description: 'Everything we do with data, from the pipelines to the models and reports.',
    },
    {
      path: '/services/data-analytics/big-data',
      title: 'Big Data',
      group: 'Data Analytics',
      navLabel: 'Big Data',
      description: 'Platforms that take in and process data at volume, reliably and at known cost.',
    },
    {
      path: '/services/data-analytics/data-science',
      title: 'Data Science',
      group: 'Data Analytics',
      navLabel: 'Data Science',
      description: 'Forecasts and models, taken from a first question all the way into production.',
    },
  ],
};

const renderRoute = async (path: string) => {
  const pages = servicePages(table, async () => ({ default: content }));
  const { default: Page } = await pages[path]!();
  render(
    <MemoryRouter initialEntries={[path]}>
      <Page />
    </MemoryRouter>,
  );
};

describe('ServicePage', () => {
  it('frames a page with its title as the h1, the breadcrumb, and a call to action to /contact', () => {
    render(
      <MemoryRouter>
        <ServicePage route={table.routes[1]!} content={content} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Big Data');
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get in touch' })).toHaveAttribute('href', '/contact');
  });

  it('a page of a group with an overview: its group crumb leads to the overview', async () => {
    await renderRoute('/services/data-analytics/big-data');
    expect(crumbs()).toEqual([
      'Home -> /',
      'Services -> /services',
      'Data Analytics -> /services/data-analytics',
      'Big Data (here)',
    ]);
  });

  it('the overview at the group’s prefix: its crumbs end at the group, and it leads to each page', async () => {
    await renderRoute('/services/data-analytics');
    expect(crumbs()).toEqual(['Home -> /', 'Services -> /services', 'Data Analytics (here)']);
    const main = screen.getByRole('heading', { level: 1 });
    expect(main).toHaveTextContent('Data Analytics');
    const cards = screen
      .getAllByRole('link')
      .filter((a) => a.getAttribute('href')?.startsWith('/services/data-analytics/'));
    expect(cards.map((a) => a.getAttribute('href'))).toEqual([
      '/services/data-analytics/big-data',
      '/services/data-analytics/data-science',
    ]);
    expect(cards[0]).toHaveTextContent(/Big Data.*Platforms that take in/);
  });
});
