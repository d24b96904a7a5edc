/**
 * The table-driven checks every remote runs over its own route table and pages (Jest + Testing
 * Library). They assert what a visitor sees on each page: its title as the only h1, the breadcrumb,
 * enough real text, a call to action leading to /contact, and links that lead somewhere real.
 */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@site/ui';
import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  prefixOf,
  type RemotePagesModule,
  type RouteTable,
} from '@site/contracts';
import { SHELL_PAGES, SHELL_PATHS, SITE_REMOTES } from '@site/contracts/site';
import { countWords } from '@site/ui';

export const MIN_WORDS = 250;

/** Paths the shell owns; other internal links must fall inside some remote's prefix. */

/** Words of the page a visitor reads as its content: hero lead and sections, not the closing CTA. */
export function mainTextWords(container: HTMLElement): number {
  const parts = container.querySelectorAll('.hero__lead, .section');
  return Array.from(parts).reduce((n, el) => n + countWords(el.textContent ?? ''), 0);
}

/** What the contract reads of a container plugin's options. */
interface FederationOptions {
  name: string;
  filename: string;
  exposes: Record<string, string | { import: string }>;
}

/**
 * Checks that a remote's build configuration exposes what the shell loads: `./pages` from
 * `src/pages/index.ts`, under the federation name its route table declares.
 */
export function runFederationConfigTest(webpackConfig: unknown, table: RouteTable): void {
  describe(`${table.remote}: federation build`, () => {
    it(`is named "${table.remote}" and exposes ./pages from src/pages/index.ts`, () => {
      const factory = webpackConfig as (env: object, argv: { mode: string }) => WebpackConfig[];
      const [config] = factory({}, { mode: 'production' });
      // webpack's own container plugin keeps its options in `options`, the enhanced one in `_options`.
      const plugin = config?.plugins.find(
        (p) => p.constructor.name === 'ModuleFederationPlugin',
      ) as { options?: FederationOptions; _options?: FederationOptions } | undefined;
      const federation = plugin?.options ?? plugin?._options;
      expect(federation?.name).toBe(table.remote);
      expect(federation?.filename).toBe('remoteEntry.js');
      const exposes = Object.fromEntries(
        Object.entries(federation?.exposes ?? {}).map(([key, value]) => [
          key,
          typeof value === 'string' ? value : value.import,
        ]),
      );
      expect(exposes).toEqual({ './pages': './src/pages/index.ts' });
    });

    it('also builds ./pages for Node, taking React and the UI package from the shell', () => {
      const factory = webpackConfig as (env: object, argv: { mode: string }) => WebpackConfig[];
      const [browser, server] = factory({}, { mode: 'production' });
      expect(server?.target).toBe('node');
      expect(server?.entry).toEqual({ pages: './src/pages/index.ts' });
      expect(server?.output.path).toBe(`${browser?.output.path}/server`);
      expect(server?.output.library).toEqual({ type: 'commonjs2' });
      expect(Object.keys(server?.externals ?? {}).sort()).toEqual(
        ['@site/ui', 'react', 'react-dom', 'react/jsx-runtime'].sort(),
      );
    });
  });
}

interface WebpackConfig {
  plugins: object[];
  target?: string;
  entry?: unknown;
  externals?: Record<string, string>;
  output: { path: string; library?: unknown };
}

export function runRemoteContractTests(
  table: RouteTable,
  pages: RemotePagesModule['pages'],
  /** Prefixes of the whole site's page groups, for checking links that leave this group. */
  sitePrefixes: readonly string[] = SITE_REMOTES.flatMap((r) => r.prefixes),
): void {
  describe(`${table.remote}: route table`, () => {
    it('claims the prefixes the site gives this group (shared/contracts/site.json)', () => {
      const slot = SITE_REMOTES.find((r) => r.name === table.remote);
      expect(slot?.prefixes).toEqual(table.prefixes);
    });

    it('has unique paths and titles, inside its prefixes', () => {
      const paths = table.routes.map((r) => r.path);
      const titles = table.routes.map((r) => r.title);
      expect(new Set(paths).size).toBe(paths.length);
      expect(new Set(titles).size).toBe(titles.length);
      for (const p of paths) {
        expect(
          prefixOf(table.prefixes, p) ? p : `${p} (outside ${table.prefixes.join(', ')})`,
        ).toBe(p);
      }
    });

    it('has an overview page at each of its prefixes, in the group its pages name', () => {
      for (const prefix of table.prefixes) {
        const overview = table.routes.find((r) => r.path === prefix);
        expect(overview ? prefix : `no route at ${prefix}`).toBe(prefix);
        const groups = new Set(
          table.routes.filter((r) => prefixOf([prefix], r.path)).map((r) => r.group),
        );
        expect([...groups]).toEqual([overview?.group]);
      }
    });

    it.each(table.routes.map((r) => [r.path, r.description] as const))(
      '%s has a description of 50 to 160 characters',
      (_path, description) => {
        expect(description.length).toBeGreaterThanOrEqual(DESCRIPTION_MIN);
        expect(description.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
      },
    );

    it('exposes exactly one page per route', () => {
      expect(Object.keys(pages).sort()).toEqual(table.routes.map((r) => r.path).sort());
    });

    it('matches the federation contract: one loader per page resolving to a component', async () => {
      const module: RemotePagesModule = { pages };
      for (const [path, load] of Object.entries(module.pages)) {
        expect(typeof load).toBe('function');
        const loaded = await load();
        expect(
          typeof loaded.default === 'function' ? path : `${path} has no default component`,
        ).toBe(path);
      }
    });
  });

  describe.each(table.routes.map((r) => [r.path, r] as const))(
    `${table.remote}: %s`,
    (path, route) => {
      const renderPage = async () => {
        const load = pages[path];
        if (!load) throw new Error(`no page for ${path}`);
        const { default: Page } = await load();
        return render(
          <MemoryRouter initialEntries={[path]}>
            <Page />
          </MemoryRouter>,
        );
      };

      it('shows its title as the only h1, under a breadcrumb whose every step is a link', async () => {
        await renderPage();
        const h1s = screen.getAllByRole('heading', { level: 1 });
        expect(h1s).toHaveLength(1);
        expect(h1s[0]).toHaveTextContent(route.title);
        const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
          .getAllByRole('listitem')
          .map((li) => {
            const link = within(li).queryByRole('link');
            return link ? `${li.textContent} -> ${link.getAttribute('href')}` : li.textContent;
          });
        const prefix = prefixOf(table.prefixes, path);
        // A group's overview is the group's own step; any other page goes through it.
        expect(crumbs).toEqual([
          'Home -> /',
          `Services -> ${SHELL_PAGES.services}`,
          ...(path === prefix ? [] : [`${route.group} -> ${prefix}`]),
          route.title,
        ]);
      });

      it('shows its own picture beside its title, hidden from assistive technology', async () => {
        const { container } = await renderPage();
        const art = container.querySelector('.hero__art svg');
        expect(art).not.toBeNull();
        expect(art).toHaveAttribute('aria-hidden', 'true');
      });

      it(`has at least ${MIN_WORDS} words of main text`, async () => {
        const { container } = await renderPage();
        expect(mainTextWords(container)).toBeGreaterThanOrEqual(MIN_WORDS);
      });

      it('ends with a call to action that leads to /contact', async () => {
        const { container } = await renderPage();
        const cta = container.querySelector('.cta');
        expect(cta).not.toBeNull();
        expect(within(cta as HTMLElement).getByRole('link')).toHaveAttribute('href', '/contact');
      });

      it('links only to pages that exist', async () => {
        const { container } = await renderPage();
        const own = new Set(table.routes.map((r) => r.path));
        for (const a of Array.from(container.querySelectorAll('a[href^="/"]'))) {
          const href = (a.getAttribute('href') ?? '').split('#')[0]!;
          if (SHELL_PATHS.includes(href)) continue;
          if (prefixOf(table.prefixes, href)) {
            expect(own.has(href) ? href : `${href} (not in the route table)`).toBe(href);
          } else {
            expect(prefixOf(sitePrefixes, href) ? href : `${href} (unknown)`).toBe(href);
          }
        }
      });

      it('has headings in order (no level skipped)', async () => {
        const { container } = await renderPage();
        const levels = Array.from(container.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((h) =>
          Number(h.tagName.slice(1)),
        );
        levels.reduce((prev, level) => {
          expect(level).toBeLessThanOrEqual(prev + 1);
          return level;
        }, 1);
      });
    },
  );
}

/** Renders a remote's page inside a router, as the shell mounts it, for a remote's own tests. */
export const renderPage = (page: React.ReactElement, path = '/') =>
  render(<MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>);
