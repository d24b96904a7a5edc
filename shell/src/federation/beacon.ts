import type { RemoteDeployment } from '@site/contracts';

/**
 * Tells the site server of a group's errors in visitors' browsers (`POST /_beacon`, counted per
 * group and version, read by a canary's automatic rollback): an error thrown or a promise rejected
 * while one of the group's pages is shown, and a group whose code could not be loaded after its
 * retries. The group and version are those of the manifest the page was rendered with.
 *
 * `navigator.sendBeacon` survives the page being left and never delays it; its string body goes
 * as text/plain, which needs no CORS preflight. A few reports per page view at most, each error
 * once: a page that throws in a loop must not become a flood.
 */
export const BEACON_URL = '/_beacon';

type Owner = Pick<RemoteDeployment, 'name' | 'version'>;

let ownerOf: (path: string) => Owner | undefined = () => undefined;

/**
 * Reports an error of `owner`'s on the page now on screen. The code that sends it (beacon-send.ts)
 * is loaded with the first report, so a page that never fails never fetches it.
 */
export function report(
  kind: 'page-error' | 'remote-load-failed',
  owner: Owner,
  error: unknown,
): Promise<void> {
  const path = window.location.pathname;
  return import(/* webpackChunkName: "beacon" */ './beacon-send').then(
    (beacon) => beacon.send(BEACON_URL, path, kind, owner, error),
    () => undefined,
  );
}

/** An error on the page now on screen, reported when a group owns that page. */
export function reportPageError(error: unknown): void {
  const owner = ownerOf(window.location.pathname);
  if (owner) void report('page-error', owner, error);
}

/**
 * Starts reporting the errors that reach the window while a group's page is shown; `owner` names
 * the group of a path (the shell's own pages have none and are not reported).
 */
export function watchPageErrors(owner: (path: string) => Owner | undefined): void {
  ownerOf = owner;
  window.addEventListener('error', (event) => reportPageError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => reportPageError(event.reason));
}
