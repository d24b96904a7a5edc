import {
  Component,
  use,
  useEffect,
  useState,
  useSyncExternalStore,
  useTransition,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router';
import { reportPageError } from '../federation/beacon';
import type { LazyPage, PageRef, ServerPage } from '../page-ref';
import { PartsUnavailable, RemoteUnavailable } from './RemoteUnavailable';

/**
 * The main area: the page of the current route. A page whose code is not at hand suspends: the
 * navigation is a transition, so the visitor keeps seeing the page they are on (with the progress
 * bar) until the new one can be shown whole. A group that cannot be loaded, or a page that crashes
 * while rendering, is shown as the notice with Retry; the rest of the site is untouched. The page
 * the visitor arrived on is different: the server already sent it whole, so while its code is
 * missing (slow, or not to be had) that HTML stays, and only a quiet notice says so.
 */
export function PageSlot({ page, serverPage }: { page: PageRef; serverPage?: ServerPage }) {
  const location = useLocation();
  if (page.kind === 'unavailable')
    // The manifest itself said the group is unavailable: Retry asks the server again.
    return (
      <Main>
        <RemoteUnavailable error={page.error} onRetry={() => window.location.reload()} />
      </Main>
    );
  return (
    <LazySlot
      key={page.lazy.id}
      page={page.lazy}
      navigation={location.key}
      kept={serverPage?.navigation === location.key ? serverPage.html : undefined}
    />
  );
}

/**
 * The `<main>` landmark. No Suspense boundary inside: navigations are transitions, so while a
 * page's code loads the page on screen stays, and on the server a page that throws fails the
 * render (503).
 */
function Main({ children, html }: { children?: ReactNode; html?: string }) {
  return html === undefined ? (
    <main id="main" tabIndex={-1}>
      {children}
    </main>
  ) : (
    // The server's markup as it arrived: React adopts it as it is and never re-renders inside it.
    <main id="main" tabIndex={-1} dangerouslySetInnerHTML={{ __html: html }} />
  );
}

const subscribeNever = () => () => {};

/**
 * The quiet notice over a kept page, once React has adopted the server's HTML: what the server
 * could not know (that this browser cannot load the page's code) is shown only then, so adoption
 * matches the HTML. A component of its own, so that the switch re-renders only it, never the page
 * (a page still adopting a part of itself must not be updated before it is done).
 */
function KeptNotice({
  show,
  retrying,
  onRetry,
}: {
  show: boolean;
  retrying: boolean;
  onRetry: () => void;
}) {
  const adopted = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  return adopted && show ? <PartsUnavailable retrying={retrying} onRetry={onRetry} /> : null;
}

function LazySlot({
  page,
  navigation,
  kept,
}: {
  page: LazyPage;
  navigation: string;
  /** The server's HTML of this page, while the browser has no code to render it with. */
  kept: string | undefined;
}) {
  const [retrying, startRetry] = useTransition();
  const [, setLoaded] = useState(0);
  const [retries, setRetries] = useState(0);
  const settled = page.result(navigation);
  const keep = kept !== undefined && !settled?.ok;

  useEffect(() => {
    if (!keep || settled) return;
    // The server's page stays on screen while its code is still on the way; when the code
    // arrives (or gives up), render again.
    let current = true;
    void page.load(navigation).then(() => current && setLoaded((n) => n + 1));
    return () => {
      current = false;
    };
  }, [keep, settled, page, navigation]);

  // Retry worked: the notice and its button are gone, so focus goes where a new page puts it.
  const recovered = kept !== undefined && !keep && retries > 0;
  useEffect(() => {
    if (recovered && document.activeElement === document.body)
      document
        .querySelector<HTMLElement>('main [data-page-heading]')
        ?.focus({ preventScroll: true });
  }, [recovered]);

  const retry = () =>
    startRetry(() => {
      page.retry();
      setRetries((n) => n + 1);
    });

  if (keep) {
    const failed = settled !== undefined;
    // Before the first failure the page simply reads as it arrived; after a Retry the notice
    // stays, saying it is trying, until the code arrives or fails again.
    const trying = retrying || (!failed && retries > 0);
    return (
      <>
        <KeptNotice show={failed || trying} retrying={trying} onRetry={retry} />
        <Main html={kept} />
      </>
    );
  }
  const result = settled ?? use(page.load(navigation));
  if (!result.ok)
    return (
      <Main>
        <RemoteUnavailable error={result.error} retrying={retrying} onRetry={retry} />
      </Main>
    );
  return (
    <Main>
      <CrashBoundary>
        <result.Component />
      </CrashBoundary>
    </Main>
  );
}

type CrashState = { crashed: false } | { crashed: true; error: unknown };

/** Keeps a page that throws while rendering to its own area: the notice takes its place. */
class CrashBoundary extends Component<{ children: ReactNode }, CrashState> {
  override state: CrashState = { crashed: false };

  static getDerivedStateFromError(error: unknown): CrashState {
    return { crashed: true, error };
  }

  override componentDidCatch(error: unknown) {
    // Caught here, it never reaches the window: the group's error count hears of it all the same.
    reportPageError(error);
  }

  override render() {
    if (!this.state.crashed) return this.props.children;
    return (
      <RemoteUnavailable
        error={this.state.error}
        onRetry={() => this.setState({ crashed: false })}
      />
    );
  }
}
