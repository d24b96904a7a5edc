import { ManifestError, parseManifest, type DeploymentManifest } from '@site/shared';

export const MANIFEST_URL = '/remotes.json';

/**
 * Fetches the deployment manifest served beside the shell. It is read at run time, never bundled,
 * so moving or rolling back a remote is an edit of that file and needs no shell build.
 */
export async function loadManifest(): Promise<DeploymentManifest> {
  let response: Response;
  try {
    // No request options: the page preloads this URL (see index.html), and the preload is reused only
    // for an identical request. The server's `Cache-Control: no-cache` keeps it fresh.
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
  return parseManifest(json);
}
