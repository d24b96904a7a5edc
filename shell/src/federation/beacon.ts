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
const MAX_PER_VIEW = 3;
const MAX_MESSAGE = 300;

type Kind = 'page-error' | 'remote-load-failed';
type Owner = Pick<RemoteDeployment, 'name' | 'version'>;

let view = '';
let sent = 0;
const seen = new Set<string>();
let ownerOf: (path: string) => Owner | undefined = () => undefined;

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : 'unknown error';
}

export function report(kind: Kind, owner: Owner, error: unknown): void {
  const path = window.location.pathname;
  if (path !== view) {
    view = path;
    sent = 0;
    seen.clear();
  }
  const message = describe(error).slice(0, MAX_MESSAGE);
  const key = `${kind} ${owner.name} ${message}`;
  if (sent >= MAX_PER_VIEW || seen.has(key)) return;
  seen.add(key);
  sent += 1;
  const body = JSON.stringify({ kind, group: owner.name, version: owner.version, message });
  try {
    navigator.sendBeacon?.(BEACON_URL, body);
  } catch {
    // A browser that refuses the beacon (a policy, a full queue): the report is lost, not the page.
  }
}

/** An error on the page now on screen, reported when a group owns that page. */
export function reportPageError(error: unknown): void {
  const owner = ownerOf(window.location.pathname);
  if (owner) report('page-error', owner, error);
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
