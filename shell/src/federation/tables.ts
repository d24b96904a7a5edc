import type { RemoteDeployment, RouteMeta } from '@site/contracts';

/**
 * The groups' whole route tables as the rest of the client asks for them: what is at hand answered
 * at once, and the code that fetches and reads a table (route-tables.ts) loaded only the first time
 * one is needed, so a page's first load does not carry it.
 */
let tables: typeof import('./route-tables') | undefined;

/** The remote's whole route table: fetched once (route-tables.ts). */
export async function routeTable(remote: RemoteDeployment): Promise<RouteMeta[]> {
  tables ??= await import(/* webpackChunkName: "route-tables" */ './route-tables');
  return tables.routeTable(remote);
}

/** Whether the remote's whole table is at hand. */
export const tableLoaded = (remote: RemoteDeployment): boolean =>
  tables?.tableLoaded(remote) ?? false;

/** The route at `path` in the remote's whole table, once it is at hand. */
export const tableRoute = (remote: RemoteDeployment, path: string): RouteMeta | undefined =>
  tables?.tableRoute(remote, path);

/** Whether a table could not be used because the site moved on since the page was composed. */
export const siteMovedOn = (error: unknown): boolean =>
  error instanceof Error && error.name === 'SiteMovedOnError';
