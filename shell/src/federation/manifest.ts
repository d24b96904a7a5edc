import {
  ManifestError,
  prefixOf,
  readGroupRoutes,
  readManifest,
  type DeploymentManifest,
} from '@site/contracts';

export const MANIFEST_URL = '/remotes.json';
/** The element in which the site server embeds the manifest the page was composed with. */
export const MANIFEST_ELEMENT_ID = 'site-manifest';
/**
 * The element in which a group's page that the manifest does not name (past the group's leading
 * pages) carries its own route.
 */
export const ROUTE_ELEMENT_ID = 'site-route';

/** The manifest with the page's own route added to its group's, where the page carries one. */
function withPageRoute(manifest: DeploymentManifest): DeploymentManifest {
  const text = document.getElementById(ROUTE_ELEMENT_ID)?.textContent;
  if (!text) return manifest;
  let route: unknown;
  try {
    route = JSON.parse(text);
  } catch {
    return manifest;
  }
  const path = (route as { path?: unknown } | null)?.path;
  if (typeof path !== 'string') return manifest;
  const owner = manifest.remotes.find((r) => prefixOf(r.prefixes, path) !== undefined);
  if (!owner || owner.routes.some((r) => r.path === path)) return manifest;
  const [read] = readGroupRoutes({ ...owner, remote: owner.name, routes: [route] }, owner) ?? [];
  if (!read) return manifest;
  return {
    ...manifest,
    remotes: manifest.remotes.map((r) => (r === owner ? { ...r, routes: [...r.routes, read] } : r)),
  };
}

/**
 * The deployment manifest the page was rendered with: embedded in the page by the site server, so
 * the client builds exactly the navigation and routes the HTML shows, even if a deploy lands
 * while the page loads. Without it (the development server) it is fetched from `/remotes.json`.
 * It is read at run time, never bundled, so a deploy needs no shell build.
 */
export async function loadManifest(): Promise<DeploymentManifest> {
  const embedded = document.getElementById(MANIFEST_ELEMENT_ID)?.textContent;
  if (embedded) {
    try {
      return withPageRoute(readManifest(JSON.parse(embedded)));
    } catch (error) {
      if (error instanceof ManifestError) throw error;
      throw new ManifestError('the deployment manifest in the page is not valid JSON');
    }
  }
  let response: Response;
  try {
    response = await fetch(MANIFEST_URL);
  } catch (error) {
    throw new ManifestError(
      `the deployment manifest ${MANIFEST_URL} could not be fetched (${String(error)})`,
    );
  }
  if (!response.ok) {
    throw new ManifestError(
      `the deployment manifest ${MANIFEST_URL} answered HTTP ${response.status}`,
    );
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ManifestError(`the deployment manifest ${MANIFEST_URL} is not valid JSON`);
  }
  return readManifest(json);
}
