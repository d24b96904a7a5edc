import { isObject, parseRoute, type RemoteDeployment } from './manifest';
import type { RouteMeta } from './routes';

/**
 * A group's whole route table as the site server answers it (`{ remote, version, routes }`), read
 * for `remote` of the page's manifest: each route checked as the manifest's are. Undefined when it
 * is another remote's or another version's table (the site moved on) or a route does not parse.
 */
export function readGroupRoutes(value: unknown, remote: RemoteDeployment): RouteMeta[] | undefined {
  if (!isObject(value) || value.remote !== remote.name || value.version !== remote.version) {
    return undefined;
  }
  if (!Array.isArray(value.routes)) return undefined;
  try {
    return value.routes.map((route, i) => parseRoute(route, `routes[${i}]`, remote.prefixes));
  } catch {
    return undefined;
  }
}
