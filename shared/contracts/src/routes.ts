/**
 * The route table each remote publishes. The shell builds its navbar, breadcrumbs, document
 * titles, sitemap and 404 decisions from these tables alone, without loading a remote's code.
 */
export interface RouteMeta {
  /** Absolute path, no trailing slash, e.g. `/services/custom-dev/software-dev`. */
  path: string;
  /** The page's title: its main heading and the first part of the document title. */
  title: string;
  /** Meta description, 50 to 160 characters. */
  description: string;
  /** The breadcrumb group, e.g. `Custom Development`. */
  group: string;
  /** The label of the page in the navigation menu. */
  navLabel: string;
  /**
   * The page's share card (a 1200×630 PNG), relative to the remote's version folder, e.g.
   * `share/services-enterprise-epm.1a2b3c4d5e.png`. Written by the production build.
   */
  image?: string;
}

export interface RouteTable {
  /** Federation name of the remote that owns these routes, e.g. `custom_dev`. */
  remote: string;
  /** Path prefixes the remote owns, e.g. `/services/custom-dev`. */
  prefixes: string[];
  routes: RouteMeta[];
}

export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 160;

/**
 * The longest route path or prefix, in characters: twice the longest a group has today. Every page
 * names each group's leading pages, so a path's length counts on every owner's pages.
 */
export const PATH_MAX = 100;

/** What a plain path is, as a refusal states it. */
export const PLAIN_PATH_RULE = `a plain path is "/" and segments of letters, digits and hyphens (a prefix's in lower case), at most ${PATH_MAX} characters: no empty, "." or ".." segment, no percent-encoding, backslash or ";"`;

/** A value as a message quotes it: long ones cut, so a refusal never carries a table's bulk. */
export const quoted = (value: string): string =>
  JSON.stringify(value.length > PATH_MAX ? `${value.slice(0, PATH_MAX)}…` : value);

/**
 * Why `value` is not a plain path, if it is not. A route's path and a prefix must be plain: a link
 * to one then never leaves the site (`//host`, `/\host`) and never names another owner's path by
 * another spelling (`..`, `%2D`, `;`, an empty segment). A prefix is lower case, as the site table
 * grants it; a path under it may have capitals (`/public-health/MandE-tools`).
 */
export function pathProblem(value: string, prefix = false): string | undefined {
  if (!value.startsWith('/')) return 'it does not start with "/"';
  if (value.length > PATH_MAX) return `it has ${value.length} characters`;
  if (value.includes('\\')) return 'it has a backslash';
  if (value.includes('%')) return 'it has percent-encoding';
  if (value.includes(';')) return 'it has a ";"';
  const segments = value.slice(1).split('/');
  if (segments.includes('')) return 'it has an empty segment';
  if (segments.some((s) => s === '.' || s === '..')) return 'it has a "." or ".." segment';
  const plain = prefix ? /^[a-z0-9-]+$/ : /^[A-Za-z0-9-]+$/;
  const odd = segments.find((s) => !plain.test(s));
  if (odd !== undefined)
    return `its segment ${quoted(odd)} has a character other than ${prefix ? 'lower-case ' : ''}letters, digits and hyphens`;
  return undefined;
}

/**
 * The prefix of `prefixes` that `path` lies under, if any. A path equal to a prefix is that
 * group's overview page, which lists the group's pages.
 */
export const prefixOf = (prefixes: readonly string[], path: string): string | undefined =>
  prefixes.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * The group of `groups` whose prefixes hold `path`: the owner of every path below them, its pages
 * and the 404 page of a path it does not have alike (the browser and the site server agree on it).
 */
export const groupAt = <Group extends { prefixes: readonly string[] }>(
  groups: Iterable<Group>,
  path: string,
): Group | undefined => [...groups].find((g) => prefixOf(g.prefixes, path) !== undefined);
