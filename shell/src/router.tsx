import type { ComponentType } from 'react';
import type { DeploymentManifest } from '@site/contracts';
import { LazyPage, type MatchRoute, type PageRef, type SiteRoute } from './page-ref';
import { RemoteUnavailableError } from './federation/errors';
import { shellRoutes } from './content/shell-routes';
import type { PageSource } from './page-source';

/** A shell page in a chunk of its own. */
const chunk = (id: string, load: () => Promise<{ default: ComponentType }>): PageRef => ({
  kind: 'lazy',
  lazy: new LazyPage(id, async () => (await load()).default),
});

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
 * the deployment manifest), and a 404 for everything else. Because every remote path is listed, an
 * unknown path inside a remote's prefix is the 404 page without loading the remote. Paths match
 * exactly and case-sensitively.
 */
export function createRoutes(manifest: DeploymentManifest, pages: PageSource): MatchRoute {
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
  ]);
  for (const remote of manifest.remotes) {
    for (const route of remote.routes) {
      byPath.set(route.path, {
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
    }
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
    page: chunk(
      'page-not-found',
      () => import(/* webpackChunkName: "page-not-found" */ './pages/NotFoundPage'),
    ),
  };

  return (pathname) => {
    const path = normalise(pathname);
    const exact = byPath.get(path);
    if (exact) return exact;
    const group = unavailable.find(
      ({ prefix }) => path === prefix || path.startsWith(`${prefix}/`),
    );
    return group?.route ?? notFound;
  };
}
