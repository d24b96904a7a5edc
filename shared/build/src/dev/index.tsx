import { Suspense, lazy, useEffect, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, useLocation } from '@site/ui';
import type { PageLoader, RouteTable } from '@site/contracts';

function Frame({ table, pages }: { table: RouteTable; pages: Record<string, PageLoader> }) {
  const location = useLocation();
  const route = table.routes.find((r) => r.path === location.pathname);
  useEffect(() => {
    document.title = route ? `${route.title} · preview` : `${table.remote} · preview`;
  }, [route, table.remote]);
  const lazyPages = useMemo(
    () => Object.fromEntries(Object.entries(pages).map(([path, load]) => [path, lazy(load)])),
    [pages],
  );
  const Page = route ? lazyPages[route.path] : undefined;
  return (
    <>
      <nav
        aria-label="Pages of this group"
        style={{ padding: '0.75rem 1rem', background: '#fff7d6' }}
      >
        <strong>Preview of {table.remote}</strong>:{' '}
        {table.routes.map((r) => (
          <Link key={r.path} to={r.path} style={{ marginRight: '1rem' }}>
            {r.navLabel}
          </Link>
        ))}
      </nav>
      <main>
        <Suspense fallback={<p>Loading…</p>}>
          {Page ? <Page /> : <p style={{ padding: '2rem' }}>Choose a page above.</p>}
        </Suspense>
      </main>
    </>
  );
}

/**
 * Standalone development frame for a remote (`npm run dev -w mfe-…`): its pages with the shared
 * styles and a list of its routes, hot reloaded, with no shell involved.
 */
export function mountStandalone(table: RouteTable, pages: Record<string, PageLoader>): void {
  const el = document.getElementById('root');
  if (!el) throw new Error('#root is missing');
  createRoot(el).render(
    <BrowserRouter>
      <Frame table={table} pages={pages} />
    </BrowserRouter>,
  );
}
