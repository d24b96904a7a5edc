import type { RouteMeta, RouteTable } from '@site/shared';
import table from './routes.json';

/** This remote's published route table: the paths it owns and each page's title and description. */
export const routeTable: RouteTable = table;

/** The route table entry of one of this remote's pages. */
export function route(path: string): RouteMeta {
  const found = routeTable.routes.find((r) => r.path === path);
  if (!found) throw new Error(`${path} is not in ${routeTable.remote}'s route table`);
  return found;
}
