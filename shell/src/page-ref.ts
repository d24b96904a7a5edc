import type { ComponentType } from 'react';
import type { PageMeta } from './content/shell-routes';
import type { RemoteUnavailableError } from './federation/errors';

/** How loading a page's code ended: the component, or why it could not be had. */
export type LoadResult = { ok: true; Component: ComponentType } | { ok: false; error: unknown };

let inFlight = 0;
const listeners = new Set<() => void>();
const notify = () => queueMicrotask(() => listeners.forEach((listener) => listener()));

/** Whether a page the visitor asked for is still loading (for the progress bar). */
export const pageLoading = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  active: (): boolean => inFlight > 0,
};

/**
 * A page whose code is loaded on demand: a shell page's chunk, or a page of a remote. The page is
 * loaded once; while it loads, React keeps showing the page the visitor is on (navigations are
 * transitions), and the load is settled rather than thrown, so a group that cannot be loaded shows
 * its notice in place without an error boundary. `retry` forgets a failure so the next render
 * loads afresh.
 */
export class LazyPage {
  private pending: Promise<LoadResult> | undefined;
  private settled: LoadResult | undefined;
  /** The navigation (location key) whose load failed: a later navigation tries again. */
  private failedFor: string | undefined;

  constructor(
    readonly id: string,
    private readonly loader: () => Promise<ComponentType>,
    private readonly cached: () => ComponentType | undefined = () => undefined,
  ) {}

  /** The component, if its code is at hand (loaded before, or preloaded on hover or tap). */
  loaded(): ComponentType | undefined {
    return this.cached() ?? (this.settled?.ok ? this.settled.Component : undefined);
  }

  /**
   * How loading ended for this navigation, if it has. A failure from an earlier navigation is
   * forgotten, so coming back to a page whose group was down tries again.
   */
  result(navigation: string): LoadResult | undefined {
    const Component = this.loaded();
    if (Component) return { ok: true, Component };
    if (this.settled && !this.settled.ok && this.failedFor !== navigation) this.retry();
    return this.settled;
  }

  /** Starts loading, or joins the load under way; the promise never rejects. */
  load(navigation: string): Promise<LoadResult> {
    if (!this.pending) {
      this.failedFor = navigation;
      inFlight += 1;
      notify();
      this.pending = this.loader().then(
        (Component): LoadResult => ({ ok: true, Component }),
        (error: unknown): LoadResult => ({ ok: false, error }),
      );
      void this.pending.then((result) => {
        this.settled = result;
        inFlight -= 1;
        notify();
      });
    }
    return this.pending;
  }

  /**
   * Settles this navigation's load as failed without loading anything: the client taking over a
   * page whose notice the server sent renders that notice too, so it adopts the HTML as it is.
   */
  fail(navigation: string, error: unknown): void {
    if (this.pending) return;
    const result: LoadResult = { ok: false, error };
    this.failedFor = navigation;
    this.settled = result;
    this.pending = Promise.resolve(result);
  }

  /** Forgets a failed load, so that the next render loads the page again. */
  retry(): void {
    if (this.settled && !this.settled.ok) {
      this.settled = undefined;
      this.pending = undefined;
    }
  }
}

/**
 * What fills `<main>` for a path:
 * - `lazy`: a page whose code loads on demand (a shell page's chunk, or a page of a remote);
 * - `unavailable`: a group whose manifest entry could not be read.
 */
export type PageRef =
  { kind: 'lazy'; lazy: LazyPage } | { kind: 'unavailable'; error: RemoteUnavailableError };

/**
 * The page the visitor arrived on, as the server sent it: the markup inside `<main>` and the
 * navigation (location key) it belongs to. While that page's code is missing it is shown as sent.
 */
export interface ServerPage {
  /** The history entry and the path it was sent for: kept for that page alone. */
  navigation: string;
  path: string;
  html: string;
}

/** A route of the site, as matched from a path. */
export interface SiteRoute {
  meta: PageMeta;
  page: PageRef;
  /** The HTTP status the server answers with when the page renders as it should. */
  status: 200 | 404 | 503;
}

/** The site's routes: the route for a path (every path has one; unknown paths the 404 page). */
export type MatchRoute = (pathname: string) => SiteRoute;

/**
 * Loads the route's page code before the first render (on the server, and in the browser before it
 * adopts the server's HTML), so that render is the page itself, or its notice: never a loading
 * state. Resolves with why the page cannot be shown, if it cannot.
 */
export async function prepare(route: SiteRoute, navigation: string): Promise<unknown> {
  if (route.page.kind === 'unavailable') return route.page.error;
  const result = await route.page.lazy.load(navigation);
  return result.ok ? undefined : result.error;
}

let adopted = false;

/** Whether the client has taken over the page the visitor entered by. */
export const siteAdopted = (): boolean => adopted;

/** Called once the client has adopted the server-rendered page. */
export function markAdopted(): void {
  adopted = true;
}
