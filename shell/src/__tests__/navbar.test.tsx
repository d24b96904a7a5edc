import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@site/ui';
import { Footer } from '../components/Footer';
import { Navbar } from '../components/Navbar';
import type { NavGroup } from '../navigation';

const groups: NavGroup[] = [
  {
    label: 'Custom Development',
    links: [
      { to: '/services/custom-dev/software-dev', label: 'Software Development' },
      { to: '/services/custom-dev/integration', label: 'Systems Integration' },
    ],
    more: 0,
    prefixes: ['/services/custom-dev'],
  },
  {
    label: 'Public Health',
    links: [{ to: '/public-health/MandE-tools', label: 'M & E Tools' }],
    more: 0,
    prefixes: ['/public-health'],
  },
];

const renderNavbar = () =>
  render(
    <MemoryRouter>
      <Navbar groups={groups} />
    </MemoryRouter>,
  );

describe('Navbar', () => {
  it('links to About and Contact, and groups every service page under Services', async () => {
    const user = userEvent.setup();
    renderNavbar();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(within(nav).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    await user.click(within(nav).getByRole('button', { name: 'Services' }));
    const list = within(nav).getByRole('list', { name: 'Custom Development' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/services/custom-dev/software-dev', '/services/custom-dev/integration']);
  });

  it('opens the services menu from the keyboard, moves with arrows, and Escape closes it and returns focus', async () => {
    const user = userEvent.setup();
    renderNavbar();
    const services = screen.getByRole('button', { name: 'Services' });
    services.focus();
    await user.keyboard('{Enter}');
    expect(services).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'All services' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Software Development' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Systems Integration' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('link', { name: 'M & E Tools' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(services).toHaveAttribute('aria-expanded', 'false');
    expect(services).toHaveFocus();
    expect(screen.queryByRole('link', { name: 'M & E Tools' })).not.toBeInTheDocument();
  });

  it('on a phone, opens one group at a time: its button says so, Escape steps back a level', async () => {
    const user = userEvent.setup();
    renderNavbar();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const services = screen.getByRole('button', { name: 'Services' });
    await user.click(services);
    const group = screen.getByRole('button', { name: 'Custom Development' });
    expect(group).toHaveAttribute('aria-expanded', 'false');
    expect(group).toHaveAttribute(
      'aria-controls',
      screen.getByRole('list', { name: 'Custom Development' }).id,
    );
    await user.click(group);
    expect(group).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(group).toHaveAttribute('aria-expanded', 'false');
    expect(group).toHaveFocus();
    expect(services).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(services).toHaveAttribute('aria-expanded', 'false');
    expect(services).toHaveFocus();
  });

  it('toggles the mobile menu with its button and closes it with Escape', async () => {
    const user = userEvent.setup();
    renderNavbar();
    const menu = screen.getByRole('button', { name: 'Menu' });
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
  });
});

describe('Footer', () => {
  it('shows the current year as the copyright year', () => {
    render(
      <MemoryRouter>
        <Footer groups={groups} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('copyright-year')).toHaveTextContent(
      String(new Date().getFullYear()),
    );
    expect(screen.getByText(/Centurion, Gauteng/)).toBeInTheDocument();
  });
});
