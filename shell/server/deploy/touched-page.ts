/**
 * The page a preview link opens: the one a new version changes, so the team lands on its work and
 * not on the group's first page. In this order: the first page the version adds; the first whose
 * title, description, menu label or group name changed; the first whose server render differs
 * from the live version's (at most `MAX_RENDERED` pages are compared, each pair rendered by its
 * own version's processes); else the group's first page.
 */
import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';

/** Pages whose renders are compared, at most: a preview answers within seconds. */
export const MAX_RENDERED = 40;

export interface TouchedPage {
  path: string;
  why: 'added' | 'described' | 'rendered' | 'first';
}

/** A page's render against a manifest: its markup, or null when it could not be rendered. */
export type RenderPage = (manifest: DeploymentManifest, path: string) => Promise<string | null>;

const described = (r: RemoteDeployment['routes'][number]) =>
  JSON.stringify([r.title, r.description, r.navLabel, r.group]);

export async function touchedPage(
  live: DeploymentManifest,
  candidate: RemoteDeployment,
  render: RenderPage,
): Promise<TouchedPage> {
  const first: TouchedPage = { path: candidate.routes[0]?.path ?? '/', why: 'first' };
  const before = live.remotes.find((r) => r.name === candidate.name);
  if (!before) return first;
  const old = new Map(before.routes.map((r) => [r.path, r]));
  const added = candidate.routes.find((r) => !old.has(r.path));
  if (added) return { path: added.path, why: 'added' };
  const redescribed = candidate.routes.find((r) => described(r) !== described(old.get(r.path)!));
  if (redescribed) return { path: redescribed.path, why: 'described' };
  const next = {
    ...live,
    remotes: live.remotes.map((r) => (r.name === candidate.name ? candidate : r)),
  };
  for (const route of candidate.routes.slice(0, MAX_RENDERED)) {
    const [now, then] = await Promise.all([render(next, route.path), render(live, route.path)]);
    if (now !== null && now !== then) return { path: route.path, why: 'rendered' };
  }
  return first;
}
