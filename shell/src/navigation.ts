import { leadingRoutes, pageCounts, prefixOf, type DeploymentManifest } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';
import type { LinkCardItem } from '@site/ui';

export interface NavLink {
  to: string;
  label: string;
  /** What the page is about, from its route table (the services page shows it). */
  description?: string;
}

export interface NavGroup {
  label: string;
  /** The group's overview page, at its prefix, if the group has one. */
  overview?: NavLink;
  /** The group's leading pages (LEADING_PAGES of each prefix at most), its overview apart. */
  links: NavLink[];
  /** How many more pages the group has: its overview lists them all. */
  more: number;
  /** The paths the group's pages lie under. */
  prefixes: string[];
}

/** The site table's prefixes in its order: the order the groups appear in everywhere. */
const SITE_ORDER = SITE_REMOTES.flatMap((r) => r.prefixes);

/**
 * The service groups, as the spec groups the pages, built from the remotes' route tables in the
 * deployment manifest, so a page a remote adds appears without a shell build. A group is the pages
 * under one prefix; the route at the prefix itself is its overview. Groups come in the site table's
 * order whatever the manifest's order (a deploy may reorder it), and a group the site table does
 * not know yet (deployed after this shell was built) comes after them, in the manifest's order.
 */
export function navGroups(manifest: DeploymentManifest): NavGroup[] {
  const groups = new Map<string, NavGroup & { rank: number }>();
  manifest.remotes.forEach((remote, index) => {
    const counts = pageCounts(remote);
    const group = (label: string, prefix: string | undefined) => {
      const known = prefix === undefined ? -1 : SITE_ORDER.indexOf(prefix);
      const rank =
        known >= 0
          ? known
          : SITE_ORDER.length + index * 100 + remote.prefixes.indexOf(prefix ?? '');
      const found = groups.get(label) ?? { label, links: [], more: 0, prefixes: [], rank };
      found.rank = Math.min(found.rank, rank);
      if (prefix !== undefined && !found.prefixes.includes(prefix)) {
        found.prefixes.push(prefix);
        // Every page under the prefix, its overview apart; the links shown are taken off below.
        const overview = remote.routes.some((r) => r.path === prefix) ? 1 : 0;
        found.more += (counts[prefix] ?? 0) - overview;
      }
      groups.set(label, found);
      return found;
    };
    for (const route of leadingRoutes(remote)) {
      const prefix = prefixOf(remote.prefixes, route.path);
      const found = group(route.group, prefix);
      const link = { to: route.path, label: route.navLabel, description: route.description };
      if (route.path === prefix) found.overview = { ...link, label: route.title };
      else {
        found.links.push(link);
        found.more -= 1;
      }
    }
  });
  return [...groups.values()]
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank: _rank, ...group }) => ({ ...group, more: Math.max(0, group.more) }));
}

/** Whether `path` is a page of one of the groups (its overview included). */
export const inGroups = (groups: readonly NavGroup[], path: string): boolean =>
  groups.some((g) => prefixOf(g.prefixes, path) !== undefined);

/**
 * A card for each group that has an overview, in the groups' order: the card written for it where
 * there is one, else its overview's title and description, so a group deployed after this shell was
 * built is on the home page too. Before the groups are known (no manifest yet), the written cards.
 */
export function groupCards(
  groups: readonly NavGroup[],
  written: readonly LinkCardItem[],
): LinkCardItem[] {
  if (groups.length === 0) return [...written];
  const byPath = new Map(written.map((card) => [card.to, card]));
  return groups.flatMap(({ overview }) =>
    overview
      ? [
          byPath.get(overview.to) ?? {
            to: overview.to,
            title: overview.label,
            text: overview.description ?? '',
          },
        ]
      : [],
  );
}

/**
 * The link to a group's overview for the pages the lists leave out, where the group has more than
 * its leading pages and an overview to list them.
 */
export function morePages(group: NavGroup): NavLink | undefined {
  if (group.more <= 0 || !group.overview) return undefined;
  return {
    to: group.overview.to,
    // Written the same on the server and in every browser: "1,000".
    label: `All ${(group.links.length + group.more).toLocaleString('en-GB')} ${group.label} services`,
  };
}
