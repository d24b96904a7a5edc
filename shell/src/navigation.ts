import { prefixOf, type DeploymentManifest } from '@site/contracts';
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
  /** The group's pages, its overview apart. */
  links: NavLink[];
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
    for (const route of remote.routes) {
      const prefix = prefixOf(remote.prefixes, route.path);
      const known = prefix === undefined ? -1 : SITE_ORDER.indexOf(prefix);
      const rank =
        known >= 0
          ? known
          : SITE_ORDER.length + index * 100 + remote.prefixes.indexOf(prefix ?? '');
      const group = groups.get(route.group) ?? { label: route.group, links: [], rank };
      group.rank = Math.min(group.rank, rank);
      const link = { to: route.path, label: route.navLabel, description: route.description };
      if (route.path === prefix) group.overview = { ...link, label: route.title };
      else group.links.push(link);
      groups.set(route.group, group);
    }
  });
  return [...groups.values()]
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank: _rank, ...group }) => group);
}

/** Every page of the groups, overviews included: what the services menu counts as "in services". */
export const groupPaths = (groups: readonly NavGroup[]): string[] =>
  groups.flatMap((g) => [...(g.overview ? [g.overview.to] : []), ...g.links.map((l) => l.to)]);

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
