/**
 * What a group's route table must be before it is read as routes: within the stated limits (its
 * bytes, its routes, the lengths of what every page shows of it), its prefixes and paths plain, and
 * its prefixes those the site table grants its group. Each refusal names the field or the path, the
 * rule and the limit; nothing is changed.
 *
 * Every page names each group's overview and leading pages (page-manifest.ts): with these limits a
 * table can make another owner's page grow by a few kilobytes at most, whatever it holds.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PLAIN_PATH_RULE, isObject, pathProblem, quoted, type RouteTable } from '@site/contracts';
import { RefusedError } from './patch';

export interface RouteTableLimits {
  /** Characters of a route's title (its heading, its document title). */
  titleChars: number;
  /** Characters of a route's navigation label. */
  navLabelChars: number;
  /** Characters of a route's group name (its navbar heading and breadcrumb). */
  groupChars: number;
  /** Routes in one group's table. */
  routes: number;
  /** Bytes of one group's route table as its origin serves it. */
  tableBytes: number;
}

/**
 * The settings that hold them (settings.ts), so a refusal says which one the operator would change.
 * A table's description is the contract's (50 to 160 characters) and is refused by its parser.
 */
export const LIMIT_SETTINGS: Record<keyof RouteTableLimits, string> = {
  titleChars: 'ROUTE_TITLE_MAX_CHARS',
  navLabelChars: 'ROUTE_NAV_LABEL_MAX_CHARS',
  groupChars: 'ROUTE_GROUP_MAX_CHARS',
  routes: 'ROUTE_TABLE_MAX_ROUTES',
  tableBytes: 'ROUTE_TABLE_MAX_BYTES',
};

const FIELDS = [
  ['title', 'titleChars'],
  ['navLabel', 'navLabelChars'],
  ['group', 'groupChars'],
] as const;

const refused = (code: string, message: string) =>
  new RefusedError(422, code, `${message}; nothing was changed`);

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Refuses a table with more routes, or longer titles, labels or group names, than the limits. */
export function refuseOversized(table: RouteTable, limits: RouteTableLimits): void {
  const routes = listOf(table.routes);
  if (routes.length > limits.routes) {
    throw refused(
      'too_many_routes',
      `the route table has ${routes.length} routes, more than the limit of ${limits.routes} (${LIMIT_SETTINGS.routes})`,
    );
  }
  routes.forEach((route, i) => {
    if (!isObject(route)) return;
    for (const [field, limit] of FIELDS) {
      const value = route[field];
      if (typeof value !== 'string' || value.length <= limits[limit]) continue;
      const at = typeof route.path === 'string' ? ` (the page ${quoted(route.path)})` : '';
      throw refused(
        'too_long',
        `routes[${i}].${field}${at} has ${value.length} characters, more than the limit of ${limits[limit]} (${LIMIT_SETTINGS[limit]})`,
      );
    }
  });
}

/** Refuses a table whose prefixes or paths are not plain paths (routes.ts), naming the first. */
export function refuseUnplain(table: RouteTable): void {
  const claimed: [string, unknown, boolean][] = [
    ...listOf(table.prefixes).map((p): [string, unknown, boolean] => ['prefix', p, true]),
    ...listOf(table.routes).map((r): [string, unknown, boolean] => [
      'path',
      isObject(r) ? r.path : undefined,
      false,
    ]),
  ];
  for (const [what, value, prefix] of claimed) {
    // Values that are not strings are left to the manifest's parser.
    if (typeof value !== 'string') continue;
    const problem = pathProblem(value, prefix);
    if (problem) {
      throw refused(
        'not_plain_path',
        `the ${what} ${quoted(value)} is not a plain path (${problem}): ${PLAIN_PATH_RULE}`,
      );
    }
  }
}

/** Each group's prefixes as the site table grants them: federation name -> prefixes. */
export type Grants = ReadonlyMap<string, readonly string[]>;

/** The site table, where each group's prefixes are granted. */
export const SITE_TABLE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'shared',
  'contracts',
  'site.json',
);

/**
 * The grants of a site table (`shared/contracts/site.json`: `npm run new-group` adds a group's row,
 * the operator edits it), read afresh for each change, so a group added while the site runs can
 * deploy without a restart.
 */
export async function readGrants(file: string): Promise<Grants> {
  const table = JSON.parse(await readFile(file, 'utf8')) as unknown;
  const rows = isObject(table) ? listOf(table.remotes) : [];
  return new Map(
    rows.flatMap((row) =>
      isObject(row) && typeof row.name === 'string'
        ? [[row.name, listOf(row.prefixes).filter((p): p is string => typeof p === 'string')]]
        : [],
    ),
  );
}

/** Grants written out: tests and callers that hold them already. */
export const grantsOf = (grants: Readonly<Record<string, readonly string[]>>): Grants =>
  new Map(Object.entries(grants));

/** Refuses a table of `name` that claims a prefix the site table does not grant it. */
export function refuseUngranted(table: RouteTable, name: string, grants: Grants): void {
  const granted = grants.get(name);
  if (!granted) {
    throw refused(
      'group_not_granted',
      `the site table grants "${name}" no prefixes: a new group is added with npm run new-group, which grants its prefix`,
    );
  }
  for (const prefix of listOf(table.prefixes)) {
    if (typeof prefix !== 'string' || granted.includes(prefix)) continue;
    throw refused(
      'prefix_not_granted',
      `the prefix ${quoted(prefix)} is not one the site table grants "${name}" (${granted.join(', ')})`,
    );
  }
}
