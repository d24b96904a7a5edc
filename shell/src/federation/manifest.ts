import { ManifestError, readManifest, type DeploymentManifest } from '@site/contracts';

export const MANIFEST_URL = '/remotes.json';
/** The element in which the site server embeds the manifest the page was composed with. */
export const MANIFEST_ELEMENT_ID = 'site-manifest';
/**
 * The element in which a group's page that the manifest does not name (past the group's leading
 * pages) carries its own route.
 */
const ROUTE_ELEMENT_ID = 'site-route';
/**
 * The deployment manifest the page was rendered with: embedded in the page by the site server, so
 * the client builds exactly the navigation and routes the HTML shows, even if a deploy lands
 * while the page loads. Without it (the development server) it is fetched from `/remotes.json`.
 * It is read at run time, never bundled, so a deploy needs no shell build.
 */
export async function loadManifest(): Promise<DeploymentManifest> {
  const embedded = document.getElementById(MANIFEST_ELEMENT_ID)?.textContent;
  if (embedded) {
    let manifest: DeploymentManifest;
    try {
      manifest = readManifest(JSON.parse(embedded));
    } catch (error) {
      if (error instanceof ManifestError) throw error;
      throw new ManifestError('the deployment manifest in the page is not valid JSON');
    }
    // A page past its group's leading pages carries its own route: added by the code that reads
    // routes beyond the manifest, loaded for such a page alone.
    if (!document.getElementById(ROUTE_ELEMENT_ID)) return manifest;
    return (await import(/* webpackChunkName: "route-tables" */ './route-tables')).withPageRoute(
      manifest,
    );
  }
  // The development server's pages embed none: the code that fetches it comes only then.
  return (await import(/* webpackChunkName: "manifest-fetch" */ './manifest-fetch')).fetchManifest(
    MANIFEST_URL,
  );
}
