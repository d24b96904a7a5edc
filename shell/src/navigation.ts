import type { DeploymentManifest } from '@site/contracts';

export interface NavLink {
  to: string;
  label: string;
}

export interface NavGroup {
  label: string;
  links: NavLink[];
}

/**
 * The service menu, grouped as the spec groups the pages, built from the remotes' route tables in
 * the deployment manifest, so a page a remote adds appears here without a shell build.
 */
export function navGroups(manifest: DeploymentManifest): NavGroup[] {
  const groups = new Map<string, NavLink[]>();
  for (const remote of manifest.remotes) {
    for (const route of remote.routes) {
      const links = groups.get(route.group) ?? [];
      links.push({ to: route.path, label: route.navLabel });
      groups.set(route.group, links);
    }
  }
  return [...groups].map(([label, links]) => ({ label, links }));
}
