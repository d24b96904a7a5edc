import type { RouteObject } from 'react-router';
import type { DeploymentManifest } from '@site/shared';
import { Layout, type RouteHandle } from './components/Layout';
import { RemotePage } from './components/RemotePage';
import { RemoteUnavailable } from './components/RemoteUnavailable';
import { RemoteUnavailableError } from './federation/errors';
import { shellRoutes } from './content/shell-routes';
import type { PageSource } from './page-source';
import HomePage from './pages/HomePage';

const handle = (meta: RouteHandle['meta']): RouteHandle => ({ meta });

const unavailableMeta = {
  title: 'Temporarily unavailable',
  description: 'This part of the site is temporarily unavailable. The rest of the site is working.',
  noindex: true,
};

/**
 * The site's routes: the shell's own pages, one route per page in the remotes' route tables (from
 * the deployment manifest), and a catch-all 404. Because every remote path is listed, an unknown
 * path inside a remote's prefix falls through to the 404 page without loading the remote.
 */
export function createRoutes(manifest: DeploymentManifest, pages: PageSource): RouteObject[] {
  const remoteRoutes: RouteObject[] = manifest.remotes.flatMap((remote) =>
    remote.routes.map((route): RouteObject => ({
      path: route.path,
      caseSensitive: true,
      handle: handle(route),
      loader: async () => {
        await pages.load(route.path);
        return null;
      },
      element: <RemotePage path={route.path} source={pages} />,
      errorElement: <RemoteUnavailable />,
    })),
  );

  // A group whose manifest entry could not be read: its pages show the notice, with status 503.
  const unavailableRoutes: RouteObject[] = (manifest.unavailable ?? []).flatMap((remote) =>
    remote.prefixes.map((prefix): RouteObject => ({
      path: `${prefix}/*`,
      caseSensitive: true,
      handle: handle({ ...unavailableMeta, path: prefix }),
      loader: () => {
        throw new RemoteUnavailableError(remote.name, remote.reason);
      },
      element: null,
      errorElement: <RemoteUnavailable />,
    })),
  );

  return [
    {
      element: <Layout manifest={manifest} />,
      children: [
        { index: true, element: <HomePage />, handle: handle(shellRoutes.home) },
        {
          path: shellRoutes.about.path.slice(1),
          caseSensitive: true,
          handle: handle(shellRoutes.about),
          // Each page of the shell but home is a chunk of its own, loaded with the page.
          lazy: async () => ({
            Component: (await import(/* webpackChunkName: "page-about" */ './pages/AboutPage'))
              .default,
          }),
        },
        {
          path: shellRoutes.contact.path.slice(1),
          caseSensitive: true,
          handle: handle(shellRoutes.contact),
          // The form and map libraries load only with the contact page.
          lazy: async () => ({
            Component: (await import(/* webpackChunkName: "page-contact" */ './pages/ContactPage'))
              .default,
          }),
        },
        ...remoteRoutes,
        ...unavailableRoutes,
        {
          path: '*',
          lazy: async () => ({
            Component: (
              await import(/* webpackChunkName: "page-not-found" */ './pages/NotFoundPage')
            ).default,
          }),
          handle: handle({ ...shellRoutes.notFound, noindex: true }),
        },
      ],
    },
  ];
}
