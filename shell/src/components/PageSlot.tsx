import { Component, use, useState, useTransition, type ReactNode } from 'react';
import { useLocation } from '@site/ui';
import { reportPageError } from '../federation/beacon';
import type { LazyPage, PageRef } from '../page-ref';
import { RemoteUnavailable } from './RemoteUnavailable';

/**
 * Renders the page of the current route. A page whose code is not at hand suspends: the navigation
 * is a transition, so the visitor keeps seeing the page they are on (with the progress bar) until
 * the new one can be shown whole. A group that cannot be loaded, or a page that crashes while
 * rendering, is shown as the notice with Retry; the rest of the site is untouched.
 */
export function PageSlot({ page }: { page: PageRef }) {
  const location = useLocation();
  if (page.kind === 'unavailable')
    // The manifest itself said the group is unavailable: Retry asks the server again.
    return <RemoteUnavailable error={page.error} onRetry={() => window.location.reload()} />;
  return <LazySlot key={page.lazy.id} page={page.lazy} navigation={location.key} />;
}

function LazySlot({ page, navigation }: { page: LazyPage; navigation: string }) {
  const [retrying, startRetry] = useTransition();
  const [, setAttempt] = useState(0);
  const result = page.result(navigation) ?? use(page.load(navigation));
  const retry = () =>
    startRetry(() => {
      page.retry();
      setAttempt((n) => n + 1);
    });
  if (!result.ok)
    return <RemoteUnavailable error={result.error} retrying={retrying} onRetry={retry} />;
  return (
    <CrashBoundary>
      <result.Component />
    </CrashBoundary>
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
