import {
  groupAt,
  ROUTE_TABLE_PATH,
  readGroupRoutes,
  type DeploymentManifest,
  type RemoteDeployment,
  type RouteMeta,
} from '@site/contracts';

/**
 * A page carries each group's overview and leading pages (the contracts' page-manifest.ts); the
 * rest of a group's route table is fetched from the site server the first time the visitor goes
 * further into the group (a link to one of its other pages followed, hovered or in view), once per
 * group version, and kept for the visit.
 */

/** The site answered another version's table: the page in view was composed before a deploy. */
export class SiteMovedOnError extends Error {
  override name = 'SiteMovedOnError';
}

const tables = new Map<string, Promise<RouteMeta[]>>();
const loaded = new Map<string, Map<string, RouteMeta>>();
const keyOf = (remote: RemoteDeployment) => `${remote.name}@${remote.version}`;

async function fetchTable(remote: RemoteDeployment): Promise<RouteMeta[]> {
  const response = await fetch(`${ROUTE_TABLE_PATH}/${encodeURIComponent(remote.name)}`, {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) {
    throw new Error(`the route table of "${remote.name}" answered HTTP ${response.status}`);
  }
  const routes = readGroupRoutes(await response.json(), remote);
  if (!routes) {
    throw new SiteMovedOnError(`the site no longer has ${remote.name} ${remote.version}`);
  }
  return routes;
}

/** The remote's whole route table: fetched once; a failure is forgotten, so the next use asks again. */
export function routeTable(remote: RemoteDeployment): Promise<RouteMeta[]> {
  const key = keyOf(remote);
  let table = tables.get(key);
  if (!table) {
    table = fetchTable(remote);
    tables.set(key, table);
    // Registered first, so whoever awaits the table finds its routes in place.
    table.then(
      (routes) => loaded.set(key, new Map(routes.map((route) => [route.path, route]))),
      () => tables.delete(key),
    );
  }
  return table;
}

/** Whether the remote's whole table is at hand. */
export const tableLoaded = (remote: RemoteDeployment): boolean => loaded.has(keyOf(remote));

/** The route at `path` in the remote's whole table, once it is at hand. */
export const tableRoute = (remote: RemoteDeployment, path: string): RouteMeta | undefined =>
  loaded.get(keyOf(remote))?.get(path);

/** The manifest with the page's own route (`#site-route`) added to its group's. */
export function withPageRoute(manifest: DeploymentManifest): DeploymentManifest {
  const text = document.getElementById('site-route')?.textContent;
  if (!text) return manifest;
  let route: unknown;
  try {
    route = JSON.parse(text);
  } catch {
    return manifest;
  }
  const path = (route as { path?: unknown } | null)?.path;
  if (typeof path !== 'string') return manifest;
  const owner = groupAt(manifest.remotes, path);
  if (!owner || owner.routes.some((r) => r.path === path)) return manifest;
  const [read] = readGroupRoutes({ ...owner, remote: owner.name, routes: [route] }, owner) ?? [];
  if (!read) return manifest;
  return {
    ...manifest,
    remotes: manifest.remotes.map((r) => (r === owner ? { ...r, routes: [...r.routes, read] } : r)),
  };
}
