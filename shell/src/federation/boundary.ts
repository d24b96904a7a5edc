import { groupAt, type DeploymentManifest } from '@site/contracts';
import { shellRoutes } from '../content/shell-routes';
import { LazyPage, type MatchRoute, type SiteRoute } from '../page-ref';

/**
 * One owner's pages per document. A group's browser code is trusted on its own pages and nowhere
 * else, and code that has run in a document stays resident there: listeners on the document,
 * observers, a changed federation share scope. So a document shows the pages of one owner only,
 * and a move to another owner's page is a page load (a new document), prefetched so it stays fast
 * (speculation-rules.ts). The owners: each group (its prefixes), the contact page (a document of
 * its own: no group's code ever runs where a prospect types), and the shell (its other pages and
 * the 404 page). A shell document runs no group's code at all.
 */

/** `group:<federation name>`, `contact` or `shell`. */
export type Owner = `group:${string}` | 'contact' | 'shell';

interface DocumentState {
  manifest: DeploymentManifest;
  owner: Owner;
  /** The path the document was loaded for. */
  entry: string;
}

let state: DocumentState | undefined;

/** A path as written in a link: no query or fragment, no trailing slashes. */
function cleanPath(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? path;
  return bare.length > 1 ? bare.replace(/\/+$/, '') || '/' : bare;
}

/** Who `path` belongs to under `manifest`: a group by its prefixes, the contact page, or the shell. */
export function ownerOf(manifest: DeploymentManifest, path: string): Owner {
  const clean = cleanPath(path);
  if (clean === shellRoutes.contact.path) return 'contact';
  const group = groupAt([...manifest.remotes, ...(manifest.unavailable ?? [])], clean);
  return group ? `group:${group.name}` : 'shell';
}

/** Fixes the document's owner: the owner of the page it was loaded for. Called once at start. */
export function enterDocument(manifest: DeploymentManifest, path: string): Owner {
  state = { manifest, owner: ownerOf(manifest, path), entry: cleanPath(path) };
  return state.owner;
}

/** The group whose code this document may run, if any: the group whose page it was loaded for. */
export function documentGroup(): string | undefined {
  const owner = state?.owner;
  return owner?.startsWith('group:') ? owner.slice('group:'.length) : undefined;
}

/**
 * Whether going to `path` must be a page load: it belongs to another owner than the document's.
 * Before the document knows its manifest, every move is.
 */
export function crossesOwner(path: string): boolean {
  return !state || ownerOf(state.manifest, path) !== state.owner;
}

/** The same-origin path an anchor leads to, or undefined (another origin, or no usable href). */
export function sitePathOf(anchor: Element): string | undefined {
  const href = anchor.getAttribute('href');
  if (!href || !(anchor instanceof HTMLAnchorElement)) return undefined;
  let url: URL;
  try {
    url = new URL(anchor.href, window.location.href);
  } catch {
    return undefined;
  }
  return url.origin === window.location.origin ? url.pathname : undefined;
}

/** Whether a click on `anchor` is one the browser would follow in this tab (no modifier, no target). */
function followsInPlace(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return false;
  const target = anchor.getAttribute('target');
  return (!target || target === '_self') && !anchor.hasAttribute('download');
}

/**
 * Lets the browser follow a link to another owner's page itself, as a page load: the click is kept
 * from the router (whose listener sits on the root element, below the document), so the browser's
 * own navigation runs, which can use a prefetched or prerendered document. Returns a function that
 * stops it.
 */
export function followOtherOwnersLinks(): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented) return;
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (!(anchor instanceof HTMLAnchorElement) || !followsInPlace(event, anchor)) return;
    const path = sitePathOf(anchor);
    if (path !== undefined && crossesOwner(path)) event.stopPropagation();
  };
  document.addEventListener('click', onClick, { capture: true });
  return () => document.removeEventListener('click', onClick, { capture: true });
}

/**
 * Loads the URL in view as a new document: for a move the router was asked to make in place (a
 * back or forward to another owner's entry, a page this document's version of its group does not
 * know). Never settles, so the page on screen stays until the new one replaces it.
 */
export function loadAsNewDocument(): Promise<never> {
  window.location.replace(window.location.href);
  return new Promise<never>(() => undefined);
}

/**
 * The site's routes as this document may show them: a page of another owner, and in a group's
 * document a path its version of the group does not know (a later version may: the site server
 * knows the group as it is now), is loaded as a new document instead of rendered in place.
 */
export function withinDocument(routes: MatchRoute): MatchRoute {
  const pageLoads = new Map<string, SiteRoute>();
  return (pathname) => {
    const route = routes(pathname);
    const path = cleanPath(pathname);
    if (path === state?.entry) return route;
    const unknownToGroup = documentGroup() !== undefined && route.status === 404;
    if (!crossesOwner(path) && !unknownToGroup) return route;
    let pageLoad = pageLoads.get(path);
    if (!pageLoad) {
      pageLoad = {
        ...route,
        page: { kind: 'lazy', lazy: new LazyPage(`page-load:${path}`, loadAsNewDocument) },
      };
      pageLoads.set(path, pageLoad);
    }
    return pageLoad;
  };
}
