import { act, fireEvent, render, screen } from '@testing-library/react';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  NavLink,
  StaticRouter,
  useLocation,
  useNavigate,
  useNavigationType,
} from '../router';
import { renderToString } from 'react-dom/server';

function Where() {
  const location = useLocation();
  const type = useNavigationType();
  return (
    <output>
      {type} {location.pathname}
      {location.search}
      {location.hash} {location.key === 'default' ? 'first' : 'moved'}
    </output>
  );
}

const where = () => screen.getByRole('status').textContent;

describe('BrowserRouter', () => {
  beforeEach(() => window.history.replaceState(null, '', '/start'));

  it('starts on the document’s own entry, keyed "default", and numbers it as React Router did', () => {
    render(
      <BrowserRouter>
        <Where />
      </BrowserRouter>,
    );
    expect(where()).toBe('POP /start first');
    expect(window.history.state).toEqual({ idx: 0 });
  });

  it('a click on a link moves within the document and adds a history entry with its own key', async () => {
    render(
      <BrowserRouter>
        <Link to="/about?x=1#team">About</Link>
        <Where />
      </BrowserRouter>,
    );
    const link = screen.getByRole('link', { name: 'About' });
    expect(link.getAttribute('href')).toBe('/about?x=1#team');
    await act(async () => {
      fireEvent.click(link);
    });
    expect(where()).toBe('PUSH /about?x=1#team moved');
    expect(window.location.pathname).toBe('/about');
    const state = window.history.state as { key: string; idx: number; usr: unknown };
    expect(state).toMatchObject({ idx: 1, usr: null });
    expect(state.key).toMatch(/^[a-z0-9]+$/);
  });

  it('a link to where the visitor is replaces the entry instead of adding one', async () => {
    render(
      <BrowserRouter>
        <Link to="/start">Here</Link>
        <Where />
      </BrowserRouter>,
    );
    const before = window.history.length;
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Here' }));
    });
    expect(where()).toBe('REPLACE /start moved');
    expect(window.history.length).toBe(before);
  });

  it.each([
    ['a modifier key', { ctrlKey: true }],
    ['the middle button', { button: 1 }],
    ['shift (a new window)', { shiftKey: true }],
  ])('a click with %s is left to the browser', (_, init) => {
    render(
      <BrowserRouter>
        <Link to="/about">About</Link>
        <Where />
      </BrowserRouter>,
    );
    const clicked = fireEvent.click(screen.getByRole('link', { name: 'About' }), init);
    expect(clicked).toBe(true);
    expect(where()).toBe('POP /start first');
  });

  it('a link elsewhere, or one whose onClick prevents it, is a plain link', () => {
    render(
      <BrowserRouter>
        <Link to="mailto:hello@example.com">Mail</Link>
        <Link to="https://example.com/x">Away</Link>
        <Link to="/about" onClick={(e) => e.preventDefault()}>
          Kept
        </Link>
        <Link to="/about" target="_blank">
          New tab
        </Link>
        <Where />
      </BrowserRouter>,
    );
    expect(screen.getByRole('link', { name: 'Mail' }).getAttribute('href')).toBe(
      'mailto:hello@example.com',
    );
    expect(screen.getByRole('link', { name: 'Away' }).getAttribute('href')).toBe(
      'https://example.com/x',
    );
    expect(fireEvent.click(screen.getByRole('link', { name: 'Mail' }))).toBe(true);
    expect(fireEvent.click(screen.getByRole('link', { name: 'Away' }))).toBe(true);
    fireEvent.click(screen.getByRole('link', { name: 'Kept' }));
    expect(fireEvent.click(screen.getByRole('link', { name: 'New tab' }))).toBe(true);
    expect(where()).toBe('POP /start first');
  });

  it('Back is a POP to the entry it left, with that entry’s key', async () => {
    render(
      <BrowserRouter>
        <Link to="/about">About</Link>
        <Where />
      </BrowserRouter>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'About' }));
    });
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(where()).toBe('POP /start first');
  });
});

describe('NavLink', () => {
  const links = (path: string) =>
    render(
      <MemoryRouter initialEntries={[path]}>
        <NavLink to="/" end className="nav">
          Home
        </NavLink>
        <NavLink to="/services/data" className="nav">
          Data
        </NavLink>
        <NavLink to="/services/data" end>
          Overview
        </NavLink>
      </MemoryRouter>,
    );

  it('marks the link to the page the visitor is on, and a section link on the pages under it', () => {
    links('/services/data/big-data');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Data' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Data' })).toHaveClass('nav', 'active');
    expect(screen.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current');
  });

  it('home is current on "/" alone, and letter case does not matter', () => {
    links('/');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    links('/Services/Data');
    expect(screen.getAllByRole('link', { name: 'Overview' })[1]).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

describe('MemoryRouter and StaticRouter', () => {
  it('a memory history moves and goes back', async () => {
    function Move() {
      const navigate = useNavigate();
      return (
        <>
          <button onClick={() => navigate('/b', { state: { from: 'a' } })}>go</button>
          <button onClick={() => navigate(-1)}>back</button>
        </>
      );
    }
    render(
      <MemoryRouter initialEntries={['/a']}>
        <Move />
        <Where />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(where()).toBe('PUSH /b moved');
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(where()).toBe('POP /a first');
  });

  it('a server render has the requested location, and its links their paths', () => {
    const html = renderToString(
      <StaticRouter location="/services/data?x=1#top">
        <Where />
        <Link to="#team">Team</Link>
      </StaticRouter>,
    );
    expect(html.replaceAll('<!-- -->', '')).toContain('POP /services/data?x=1#top first');
    expect(html).toContain('href="/services/data?x=1#team"');
  });

  it('a server render keeps an odd path as it was asked, as the browser will read it', () => {
    for (const path of ['//evil.example/x', '/services/custom%2Ddev', '/x?a=1#b']) {
      const html = renderToString(
        <StaticRouter location={path}>
          <Where />
        </StaticRouter>,
      );
      expect(html.replaceAll('<!-- -->', '')).toContain(`POP ${path} first`);
    }
  });

  it('a hook outside any router says so', () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Where />)).toThrow(/outside a router/);
    quiet.mockRestore();
  });
});
