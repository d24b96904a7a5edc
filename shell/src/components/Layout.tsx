import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches, useNavigation, type Location } from 'react-router';
import type { DeploymentManifest } from '@site/shared';
import { shellRoutes, type PageMeta } from '../content/shell-routes';
import { useAnimateOnScroll } from '../hooks/use-animate-on-scroll';
import { useDocumentMeta } from '../hooks/use-document-meta';
import { useFocusOnNavigate } from '../hooks/use-focus-on-navigate';
import { useLinkPreload } from '../hooks/use-link-preload';
import { navGroups } from '../navigation';
import { Footer } from './Footer';
import { Navbar } from './Navbar';

/**
 * Every freshly loaded document starts with the location key "default"; keyed by that alone, the
 * scroll position saved on one page would be restored on the next page loaded afresh (and win over
 * its #anchor). Fresh loads are keyed by their URL instead.
 */
const scrollKey = (location: Location): string =>
  location.key === 'default' ? `load:${location.pathname}${location.hash}` : location.key;

export interface RouteHandle {
  meta: PageMeta;
}

const notFoundMeta: PageMeta = { ...shellRoutes.notFound, noindex: true };

/** The frame around every page: skip link, navbar, the page, footer; and the per-page duties. */
export function Layout({ manifest }: { manifest: DeploymentManifest }) {
  const matches = useMatches();
  const navigation = useNavigation();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const groups = navGroups(manifest);

  useDocumentMeta(handle?.meta ?? notFoundMeta);
  useFocusOnNavigate();
  useLinkPreload();
  useAnimateOnScroll();
  useEffect(() => {
    // Tells tests and the benchmark that the client has taken the page over.
    document.documentElement.dataset.appReady = 'true';
  }, []);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <Navbar groups={groups} />
      <div
        className={navigation.state === 'idle' ? 'route-progress' : 'route-progress is-active'}
        aria-hidden="true"
      />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer groups={groups} />
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
