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
 * The prefix of `prefixes` that `path` lies under, if any. A path equal to a prefix is that
 * group's overview page, which lists the group's pages.
 */
export const prefixOf = (prefixes: readonly string[], path: string): string | undefined =>
  prefixes.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
