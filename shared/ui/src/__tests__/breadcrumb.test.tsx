import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Breadcrumb } from '../components/Breadcrumb';
import { ServicePage } from '../components/ServicePage';

describe('Breadcrumb', () => {
  it('reads Home, Services, group, page, with Home linking to the root and the page marked current', () => {
    render(
      <MemoryRouter>
        <Breadcrumb group="Data Analytics" page="Big Data" />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(nav)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Home', 'Services', 'Data Analytics', 'Big Data']);
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByText('Big Data')).toHaveAttribute('aria-current', 'page');
  });
});

describe('ServicePage', () => {
  it('frames a page with its title as the h1, the breadcrumb, and a call to action to /contact', () => {
    render(
      <MemoryRouter>
        <ServicePage
          route={{
            path: '/x/y',
            title: 'Big Data',
            group: 'Data Analytics',
            navLabel: 'Big Data',
            description: 'd'.repeat(60),
          }}
          content={{
            lead: 'Data at scale.',
            intro: { heading: 'What it is', paragraphs: ['Body'] },
            sections: [],
          }}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Big Data');
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get in touch' })).toHaveAttribute('href', '/contact');
  });
});
