import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useLocation } from '@site/ui';
import { type DeploymentManifest } from '@site/contracts';
import { markAdopted, pageLoading, type MatchRoute, type ServerPage } from '../page-ref';
import { useAnimateOnScroll } from '../hooks/use-animate-on-scroll';
import { useDocumentMeta } from '../hooks/use-document-meta';
import { useFocusOnNavigate } from '../hooks/use-focus-on-navigate';
import { useLinkPreload } from '../hooks/use-link-preload';
import { useScrollRestoration } from '../hooks/use-scroll-restoration';
import { useStepwiseLayout } from '../hooks/use-stepwise-layout';
import { NavGroupsContext } from '../hooks/use-nav-groups';
import { navGroups } from '../navigation';
import { Footer } from './Footer';
import { KeptMain, useKeptPage } from './KeptPage';
import { Navbar } from './Navbar';
import { PageSlot } from './PageSlot';

const serverSnapshot = () => false;

/**
 * What a server render of the layout draws: the whole page (`all`, as the browser does), the frame
 * alone with `PAGE_SLOT` where the page goes (`frame`), or the page alone (`page`). The page is
 * drawn at the same place in the tree in all three, so its markup, `useId` values included, is the
 * same whichever way it is rendered: the site server renders the frame and each page separately
 * (the page in its group's own processes) and puts the page into the frame's slot.
 */
export type LayoutPart = 'all' | 'frame' | 'page';

/** The frame's placeholder for the page: an element no page's escaped markup can spell. */
export const PAGE_SLOT = '<template data-page-slot=""></template>';

function PageSlotMarker() {
  return <template data-page-slot="" />;
}

/** The frame around every page: skip link, navbar, the page, footer; and the per-page duties. */
export function Layout({
  manifest,
  routes,
  part = 'all',
  serverPage,
}: {
  manifest: DeploymentManifest;
  routes: MatchRoute;
  part?: LayoutPart;
  /** The page the server sent, kept on screen while its code is missing (the browser only). */
  serverPage?: ServerPage;
}) {
  const { pathname } = useLocation();
  const route = routes(pathname);
  const groups = useMemo(() => navGroups(manifest), [manifest]);
  const loading = useSyncExternalStore(pageLoading.subscribe, pageLoading.active, serverSnapshot);
  const kept = useKeptPage(route.page, serverPage);

  useDocumentMeta(route.meta);
  useFocusOnNavigate();
  useScrollRestoration();
  useLinkPreload();
  useAnimateOnScroll();
  useStepwiseLayout();
  useEffect(() => {
    markAdopted();
    // Tells tests and the benchmark that the client has taken the page over.
    document.documentElement.dataset.appReady = 'true';
  }, []);

  // No Suspense boundary: navigations are transitions, so while a page's code loads the page on
  // screen stays, and on the server a page that throws fails the render (503).
  const page =
    part === 'frame' ? (
      <PageSlotMarker />
    ) : (
      <NavGroupsContext value={groups}>
        <PageSlot page={route.page} />
      </NavGroupsContext>
    );
  const frame = part !== 'page';
  // Five children in every part, each in its place (left empty where the part does not draw it):
  // React numbers `useId` by position among siblings, so the page keeps its place.
  return (
    <>
      {frame ? (
        <a className="skip-link" href="#main">
          Skip to main content
        </a>
      ) : null}
      {frame ? <Navbar groups={groups} /> : null}
      {frame ? (
        <div
          className={loading ? 'route-progress is-active' : 'route-progress'}
          aria-hidden="true"
        />
      ) : null}
      {kept ? (
        <KeptMain kept={kept} />
      ) : frame ? (
        <main id="main" tabIndex={-1}>
          {page}
        </main>
      ) : (
        page
      )}
      {frame ? <Footer groups={groups} /> : null}
    </>
  );
}
