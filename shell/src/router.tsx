import type { ComponentType } from 'react';
import {
  namesEveryPage,
  prefixOf,
  type DeploymentManifest,
  type RemoteDeployment,
  type RouteMeta,
} from '@site/contracts';
import { LazyPage, type MatchRoute, type PageRef, type SiteRoute } from './page-ref';
import { RemoteUnavailableError } from './federation/errors';
import { shellRoutes } from './content/shell-routes';
import type { PageSource } from './page-source';

/** A shell page in a chunk of its own. */
const chunk = (id: string, load: () => Promise<{ default: ComponentType }>): PageRef => ({
  kind: 'lazy',
  lazy: new LazyPage(id, async () => (await load()).default),
});

/**
 * The whole route tables of groups the page's manifest names only in part (the browser's, fetched
 * from the site server: federation/route-tables.ts). Without them, a path the manifest does not
 * name is the 404 page (the server renders with what it is given).
 */
export interface RouteTables {
  loaded(remote: RemoteDeployment): boolean;
  route(remote: RemoteDeployment, path: string): RouteMeta | undefined;
  /** Rejects with SiteMovedOnError (federation/route-tables.ts) when the site has moved on. */
  load(remote: RemoteDeployment): Promise<unknown>;
  /** Takes the visitor to `path` with a page load (the site moved on since this page was composed). */
  reload(path: string, error: unknown): boolean;
}

const loadNotFound = async () =>
  (await import(/* webpackChunkName: "page-not-found" */ './pages/NotFoundPage')).default;

/** A path as the routes see it: decoded, and without trailing slashes (`/about/` is `/about`). */
function normalise(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // A malformed escape is matched as written, and so falls through to the 404 page.
  }
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * The site's routes: the shell's own pages, one route per page in the remotes' route tables (from
 * the deployment manifest, and a group's whole table once fetched), and a 404 for everything else.
 * Because every remote path is listed, an unknown path inside a remote's prefix is the 404 page
 * without loading the remote. Paths match exactly and case-sensitively.
 */
export function createRoutes(
  manifest: DeploymentManifest,
  pages: PageSource,
  tables?: RouteTables,
): MatchRoute {
  const remoteRoute = (route: RouteMeta): SiteRoute => ({
    meta: route,
    status: 200,
    page: {
      kind: 'lazy',
      lazy: new LazyPage(
        route.path,
        () => pages.load(route.path),
        () => pages.loaded(route.path),
      ),
    },
  });
  const byPath = new Map<string, SiteRoute>([
    [
      shellRoutes.home.path,
      {
        meta: shellRoutes.home,
        status: 200,
        // Every page is a chunk of its own, loaded with the page: the entry holds only the frame.
        page: chunk(
          'page-home',
          () => import(/* webpackChunkName: "page-home" */ './pages/HomePage'),
        ),
      },
    ],
    [
      shellRoutes.about.path,
      {
        meta: shellRoutes.about,
        status: 200,
        page: chunk(
          'page-about',
          () => import(/* webpackChunkName: "page-about" */ './pages/AboutPage'),
        ),
      },
    ],
    [
      shellRoutes.services.path,
      {
        meta: shellRoutes.services,
        status: 200,
        page: chunk(
          'page-services',
          () => import(/* webpackChunkName: "page-services" */ './pages/ServicesPage'),
        ),
      },
    ],
    [
      shellRoutes.contact.path,
      {
        meta: shellRoutes.contact,
        status: 200,
        // The form and map libraries load only with the contact page (the form's after idle).
        page: chunk('page-contact', async () => {
          const page = await import(/* webpackChunkName: "page-contact" */ './pages/ContactPage');
          await page.withFormCode();
          return page;
        }),
      },
    ],
    [
      shellRoutes.privacy.path,
      {
        meta: shellRoutes.privacy,
        status: 200,
        page: chunk(
          'page-privacy',
          () => import(/* webpackChunkName: "page-privacy" */ './pages/PrivacyPage'),
        ),
      },
    ],
  ]);
  for (const remote of manifest.remotes) {
    for (const route of remote.routes) byPath.set(route.path, remoteRoute(route));
  }

  // A group whose manifest entry could not be read: its pages show the notice, with status 503.
  const unavailable = (manifest.unavailable ?? []).flatMap((remote) => {
    const error = new RemoteUnavailableError(remote.name, remote.reason);
    return remote.prefixes.map((prefix) => ({
      prefix,
      route: {
        meta: { ...shellRoutes.unavailable, path: prefix, noindex: true },
        status: 503,
        page: { kind: 'unavailable', error },
      } satisfies SiteRoute,
    }));
  });

  const notFound: SiteRoute = {
    meta: { ...shellRoutes.notFound, noindex: true },
    status: 404,
    page: { kind: 'lazy', lazy: new LazyPage('page-not-found', loadNotFound) },
  };

  /**
   * A path in a group the manifest names only in part: once the group's whole table is at hand,
   * its page or the 404 page; until then a page that fetches the table first (the navigation
   * waits on it as on any page's code), then the page's code, or the 404 page's.
   */
  const further = new Map<string, SiteRoute>();
  function furtherRoute(remote: RemoteDeployment, path: string): SiteRoute | undefined {
    if (!tables || namesEveryPage(remote)) return undefined;
    if (tables.loaded(remote)) {
      const route = tables.route(remote, path);
      if (!route) return undefined;
      const made = remoteRoute(route);
      byPath.set(path, made);
      return made;
    }
    let pending = further.get(path);
    if (!pending) {
      const load = async (): Promise<ComponentType> => {
        try {
          await tables.load(remote);
        } catch (error) {
          if (tables.reload(path, error)) return new Promise<never>(() => undefined);
          throw new RemoteUnavailableError(remote.name, error);
        }
        return tables.route(remote, path) ? pages.load(path) : loadNotFound();
      };
      pending = {
        meta: { ...shellRoutes.unavailable, path, noindex: true },
        status: 200,
        page: { kind: 'lazy', lazy: new LazyPage(`routes:${path}`, load) },
      };
      further.set(path, pending);
    }
    return pending;
  }

  return (pathname) => {
    const path = normalise(pathname);
    const exact = byPath.get(path);
    if (exact) return exact;
    const owner = manifest.remotes.find((r) => prefixOf(r.prefixes, path) !== undefined);
    const elsewhere = owner && furtherRoute(owner, path);
    if (elsewhere) return elsewhere;
    const group = unavailable.find(
      ({ prefix }) => path === prefix || path.startsWith(`${prefix}/`),
    );
    return group?.route ?? notFound;
  };
}
