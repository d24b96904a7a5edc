import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { type DeploymentManifest } from '@site/contracts';
import { markAdopted, pageLoading, type MatchRoute, type ServerPage } from '../page-ref';
import { useAnimateOnScroll } from '../hooks/use-animate-on-scroll';
import { useDocumentMeta } from '../hooks/use-document-meta';
import { useFocusOnNavigate } from '../hooks/use-focus-on-navigate';
import { useLinkPreload } from '../hooks/use-link-preload';
import { useScrollRestoration } from '../hooks/use-scroll-restoration';
import { NavGroupsContext } from '../hooks/use-nav-groups';
import { navGroups } from '../navigation';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { PageSlot } from './PageSlot';

const serverSnapshot = () => false;

/** The frame around every page: skip link, navbar, the page, footer; and the per-page duties. */
export function Layout({
  manifest,
  routes,
  serverPage,
}: {
  manifest: DeploymentManifest;
  routes: MatchRoute;
  /** The page the server sent, kept on screen while its code is missing (the browser only). */
  serverPage?: ServerPage;
}) {
  const { pathname } = useLocation();
  const route = routes(pathname);
  const groups = useMemo(() => navGroups(manifest), [manifest]);
  const loading = useSyncExternalStore(pageLoading.subscribe, pageLoading.active, serverSnapshot);

  useDocumentMeta(route.meta);
  useFocusOnNavigate();
  useScrollRestoration();
  useLinkPreload();
  useAnimateOnScroll();
  useEffect(() => {
    markAdopted();
    // Tells tests and the benchmark that the client has taken the page over.
    document.documentElement.dataset.appReady = 'true';
  }, []);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <Navbar groups={groups} />
      <div className={loading ? 'route-progress is-active' : 'route-progress'} aria-hidden="true" />
      <NavGroupsContext value={groups}>
        <PageSlot page={route.page} serverPage={serverPage} />
      </NavGroupsContext>
      <Footer groups={groups} />
    </>
  );
}
