import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, StaticRouter } from '@site/ui';
import {
  LEADING_PAGES,
  leadingRemote,
  readManifest,
  type DeploymentManifest,
  type RemoteDeployment,
  type RouteMeta,
} from '@site/contracts';
import { Footer } from '../components/Footer';
import { Layout } from '../components/Layout';
import { navGroups } from '../navigation';
import type { SiteRoute } from '../page-ref';
import { createRoutes, type RouteTables } from '../router';

/** A group of `count` pages past its overview, as a team that keeps adding pages has it. */
function grown(count: number): RemoteDeployment {
  const route = (path: string, label: string): RouteMeta => ({
    path,
    title: label,
    navLabel: label,
    group: 'Grown',
    description: `What ${label} is about, in a sentence long enough for the contract.`,
  });
  return {
    name: 'grown',
    entry: 'http://localhost:3999/2.0.0/remoteEntry.js',
    version: '2.0.0',
    prefixes: ['/grown'],
    routes: [
      route('/grown', 'Grown overview'),
      ...Array.from({ length: count }, (_, i) => route(`/grown/p${i + 1}`, `Page ${i + 1}`)),
    ],
  };
}

const full: DeploymentManifest = readManifest({
  schemaVersion: 1,
  generatedAt: '2026-11-28T00:00:00.000Z',
  remotes: [grown(1000)],
});
/** What a page carries: the group's overview and leading pages, and the page's own route. */
const carried = (also?: string): DeploymentManifest => {
  const remote = leadingRemote(full.remotes[0]!);
  const extra = full.remotes[0]!.routes.find((r) => r.path === also);
  return {
    ...full,
    remotes: [{ ...remote, routes: [...remote.routes, ...(extra ? [extra] : [])] }],
  };
};

describe('a group of 1,000 pages in the navigation', () => {
  test('the server, drawing from the whole table, and the browser, from what the page carries, draw the same', () => {
    const expected = navGroups(full);
    expect(navGroups(carried())).toEqual(expected);
    expect(navGroups(carried('/grown/p700'))).toEqual(expected);
    expect(expected[0]!.links).toHaveLength(LEADING_PAGES);
    expect(expected[0]!.more).toBe(1000 - LEADING_PAGES);
    const frame = (manifest: DeploymentManifest) =>
      renderToString(
        <StaticRouter location="/grown/p700">
          <Layout manifest={manifest} routes={createRoutes(manifest, noPages)} part="frame" />
        </StaticRouter>,
      );
    expect(frame(carried('/grown/p700'))).toBe(frame(full));
  });

  test('the footer names the leading pages and leads to the overview for all of them', () => {
    render(
      <MemoryRouter>
        <Footer groups={navGroups(carried())} />
      </MemoryRouter>,
    );
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    const links = within(footer)
      .getAllByRole('link')
      .filter((a) => a.getAttribute('href')?.startsWith('/grown'));
    expect(links.map((a) => a.textContent)).toEqual([
      'Grown',
      ...Array.from({ length: LEADING_PAGES }, (_, i) => `Page ${i + 1}`),
      'All 1,000 Grown services',
    ]);
    expect(links.at(-1)).toHaveAttribute('href', '/grown');
  });
});

const Drawn = () => null;
const noPages = { load: () => Promise.resolve(Drawn), loaded: () => undefined };

/** The group's whole table, as the browser fetches it, from a list held here. */
function tablesOf(routes: RouteMeta[] | Error) {
  const asked: string[] = [];
  const reloaded: string[] = [];
  let loaded = false;
  const tables: RouteTables = {
    loaded: () => loaded,
    route: (_remote, path) =>
      loaded && !(routes instanceof Error) ? routes.find((r) => r.path === path) : undefined,
    load(remote) {
      asked.push(remote.name);
      if (routes instanceof Error) return Promise.reject(routes);
      loaded = true;
      return Promise.resolve(routes);
    },
    reload(path, error) {
      if (!(error instanceof Error) || error.message !== 'moved on') return false;
      reloaded.push(path);
      return true;
    },
  };
  return { tables, asked, reloaded };
}

const loadOf = async (route: SiteRoute) =>
  route.page.kind === 'lazy' ? route.page.lazy.load('test') : undefined;

describe('the routes of a page that carries part of a group', () => {
  test('a page past the leading ones: its table first, then the page itself', async () => {
    const { tables, asked } = tablesOf(full.remotes[0]!.routes);
    const routes = createRoutes(carried(), noPages, tables);
    expect(routes('/grown/p3').meta.title).toBe('Page 3');
    const pending = routes('/grown/p900');
    expect(asked).toEqual([]);
    expect(await loadOf(pending)).toEqual({ ok: true, Component: Drawn });
    expect(asked).toEqual(['grown']);
    expect(routes('/grown/p900')).toMatchObject({ status: 200, meta: { title: 'Page 900' } });
  });

  test('a path the whole table lacks is the 404 page, once the table says so', async () => {
    const { tables } = tablesOf(full.remotes[0]!.routes);
    const routes = createRoutes(carried(), noPages, tables);
    const result = await loadOf(routes('/grown/p1001'));
    expect(result?.ok).toBe(true);
    expect(routes('/grown/p1001').status).toBe(404);
    expect(routes('/elsewhere').status).toBe(404);
  });

  test("a table that cannot be had is the group's notice; a site that moved on is loaded afresh", async () => {
    const down = tablesOf(new Error('HTTP 503'));
    const failed = await loadOf(createRoutes(carried(), noPages, down.tables)('/grown/p900'));
    expect(failed).toMatchObject({ ok: false, error: { name: 'RemoteUnavailableError' } });
    const moved = tablesOf(new Error('moved on'));
    const route = createRoutes(carried(), noPages, moved.tables)('/grown/p900');
    void loadOf(route);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(moved.reloaded).toEqual(['/grown/p900']);
  });

  test('without tables (the server), a page the manifest does not carry is the 404 page', () => {
    expect(createRoutes(carried(), noPages)('/grown/p900').status).toBe(404);
    expect(createRoutes(full, noPages)('/grown/p900').status).toBe(200);
  });
});
