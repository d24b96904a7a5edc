import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from '@site/ui';
import { StrictMode, startTransition } from 'react';
import { ManifestError } from '@site/contracts';
import { RemoteUnavailableError } from './federation/errors';
import { loadManifest } from './federation/manifest';
import { watchPageErrors } from './federation/beacon';
import { enterDocument, followOtherOwnersLinks, withinDocument } from './federation/boundary';
import {
  loadPage,
  loadedPage,
  pageOwner,
  registerManifest,
  remoteForPath,
} from './federation/remotes';
import { routeTable, siteMovedOn, tableLoaded, tableRoute } from './federation/tables';
import { Layout } from './components/Layout';
import { prepare, type ServerPage } from './page-ref';
import { createRoutes, type RouteTables } from './router';

/** Groups' whole route tables, fetched from the site server as the visitor goes further. */
const tables: RouteTables = {
  loaded: tableLoaded,
  route: tableRoute,
  load: routeTable,
  reload(path, error) {
    if (!siteMovedOn(error)) return false;
    // A deploy landed since this page was composed: a page load gets the site as it is now.
    window.location.assign(path);
    return true;
  },
};

/**
 * How long the client waits for the first page's code before taking over without it: about one
 * load attempt (federation/remotes.ts), far beyond what a page's code takes on a working network.
 */
const FIRST_PAGE_PATIENCE_MS = 5000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from the page');
  try {
    const manifest = await loadManifest();
    registerManifest(manifest);
    // The document's owner is the page it was loaded for: a move to another owner's page is a
    // page load from here on (federation/boundary.ts).
    enterDocument(manifest, window.location.pathname);
    followOtherOwnersLinks();
    watchPageErrors(pageOwner);
    const routes = withinDocument(
      createRoutes(manifest, { load: loadPage, loaded: loadedPage }, tables),
    );
    // Take over only once the first page's code is loaded (or has failed to), so the first client
    // render is the page the server rendered: no loading state in between, no layout shift.
    // The router keys the entry it starts on by the key in `history.state`, or "default".
    const entry = (window.history.state as { key?: string } | null)?.key ?? 'default';
    const first = routes(window.location.pathname);
    // Where the server could not render the page and sent its notice, the first render is that
    // notice too, even if this browser could load the page: a first render that differs from the
    // HTML makes React discard it, and a link tapped meanwhile goes nowhere. Retry loads the page.
    const notice = container.querySelector<HTMLElement>('main [data-notice]')?.dataset.notice;
    if (notice && first.page.kind === 'lazy') {
      const reason = 'the server could not render this page';
      const owner = remoteForPath(first.meta.path)?.name ?? 'unknown';
      first.page.lazy.fail(
        entry,
        notice === 'unavailable' ? new RemoteUnavailableError(owner, reason) : new Error(reason),
      );
    }
    // A page the server sent whole can be read without its code: if that code is slow or cannot
    // be had, the client takes over the rest of the site and keeps the page as sent meanwhile,
    // rather than holding the menu and every link back until the group's loads give up.
    const main = container.querySelector('main');
    const serverPage: ServerPage | undefined =
      main && !notice && first.page.kind === 'lazy'
        ? { navigation: entry, path: window.location.pathname, html: main.innerHTML }
        : undefined;
    const loading = prepare(first, entry);
    await (serverPage ? Promise.race([loading, delay(FIRST_PAGE_PATIENCE_MS)]) : loading);
    const app = (
      <StrictMode>
        <BrowserRouter>
          <Layout manifest={manifest} routes={routes} serverPage={serverPage} />
        </BrowserRouter>
      </StrictMode>
    );
    // A server-rendered page is hydrated: React adopts the HTML already on screen instead of
    // replacing it, so the painted text stays the largest paint. Without server-rendered HTML
    // (development) the app renders from scratch.
    // As a transition, hydration yields to the browser between components instead of running
    // as one long task, so the page answers input while it is being adopted.
    if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
    else createRoot(container).render(app);
  } catch (error) {
    console.error('The site could not start:', error);
    // The error page is loaded only when needed; if even that fails, a plain message says so.
    await import('./components/StartupError').then(
      ({ StartupError }) =>
        createRoot(container).render(
          <StartupError error={error} manifestProblem={error instanceof ManifestError} />,
        ),
      () => {
        container.textContent = 'The site could not load. Please try again in a few minutes.';
      },
    );
  }
}

void start();
