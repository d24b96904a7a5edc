import type { RemoteDeployment } from '@site/contracts';

/**
 * Sends one report of beacon.ts: a few a page view at most, each error once, so a page that throws
 * in a loop never becomes a flood. `navigator.sendBeacon` survives the page being left and never
 * delays it; its string body goes as text/plain, which needs no CORS preflight.
 */
const MAX_PER_VIEW = 3;
/** Where a group that could not be loaded is reported for its files to be checked. */
const INTEGRITY_URL = '/_integrity';
const MAX_MESSAGE = 300;

let view = '';
let sent = 0;
const seen = new Set<string>();

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : 'unknown error';
}

export function send(
  url: string,
  path: string,
  kind: string,
  owner: Pick<RemoteDeployment, 'name' | 'version'>,
  error: unknown,
): void {
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
    navigator.sendBeacon?.(url, body);
    // The site checks the group's files against their pins itself: a file changed on the group's
    // host since its deploy is what the browser refused to run, and is counted as such.
    if (kind === 'remote-load-failed') navigator.sendBeacon?.(INTEGRITY_URL, body);
  } catch {
    // A browser that refuses the beacon (a policy, a full queue): the report is lost, not the page.
  }
}
