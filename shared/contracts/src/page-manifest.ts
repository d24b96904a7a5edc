/**
 * What of the deployment manifest a page carries. Every page names each group's overview and its
 * leading pages (the first LEADING_PAGES of each prefix, in the order of the group's route table):
 * the navbar, the footer, the home page and the services page list those, and a group's overview
 * lists the rest. The whole route table of a group is fetched when a visitor goes further into it
 * (`/_routes/<group>`), so a page costs the same however many pages the site has.
 */
import { readManifestEntries, type RemoteDeployment } from './manifest';
import { prefixOf, type RouteMeta } from './routes';

/** How many pages of each prefix (its overview apart) every page names. */
export const LEADING_PAGES = 10;

/** The path under which the site server answers a group's whole route table. */
export const ROUTE_TABLE_PATH = '/_routes';

/** A group's whole route table, as the site server answers it for the manifest a visitor sees. */
export interface GroupRoutes {
  remote: string;
  version: string;
  routes: RouteMeta[];
}

/** How many pages each of the remote's prefixes has, overview included. */
export function pageCounts(remote: RemoteDeployment): Record<string, number> {
  if (remote.pages) return remote.pages;
  const counts: Record<string, number> = Object.fromEntries(remote.prefixes.map((p) => [p, 0]));
  for (const route of remote.routes) {
    const prefix = prefixOf(remote.prefixes, route.path);
    if (prefix !== undefined) counts[prefix] = (counts[prefix] ?? 0) + 1;
  }
  return counts;
}

/** The routes every page names of a remote: each prefix's overview and its leading pages. */
export function leadingRoutes(remote: RemoteDeployment): RouteMeta[] {
  const taken = new Map<string, number>();
  return remote.routes.filter((route) => {
    const prefix = prefixOf(remote.prefixes, route.path);
    if (prefix === undefined || route.path === prefix) return true;
    const count = taken.get(prefix) ?? 0;
    taken.set(prefix, count + 1);
    return count < LEADING_PAGES;
  });
}

/** The remote as a page carries it: its leading routes, and its counts when some are left out. */
export function leadingRemote(remote: RemoteDeployment): RemoteDeployment {
  const routes = leadingRoutes(remote);
  if (routes.length === remote.routes.length) return remote;
  return { ...remote, routes, pages: pageCounts(remote) };
}

/** Whether a page's manifest names every page of the remote. */
export const namesEveryPage = (remote: RemoteDeployment): boolean =>
  remote.pages === undefined ||
  Object.values(remote.pages).reduce((a, b) => a + b, 0) <= remote.routes.length;

/**
 * The manifest JSON a page embeds, from the live JSON: each readable remote with its leading
 * routes and without the pins of its files; every other key and every entry the reader sets aside as it is, so the browser's reader
 * sets the same entries aside for the same reasons.
 */
export function pageManifestJson(json: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { manifest, entries } = readManifestEntries(json);
  const raw = json.remotes as unknown[];
  const remotes = [...raw];
  manifest.remotes.forEach((remote, i) => {
    const leading = leadingRemote(remote);
    const index = entries[i]!;
    // The pins of its files reach the page apart, only where the page may load them (compose.ts).
    const { files: _pins, ...entry } = raw[index] as Record<string, unknown>;
    remotes[index] =
      leading === remote ? entry : { ...entry, routes: leading.routes, pages: leading.pages };
  });
  return { ...json, remotes };
}
