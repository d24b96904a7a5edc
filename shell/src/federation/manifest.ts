import { ManifestError, parseManifest, type DeploymentManifest } from '@site/shared';

export const MANIFEST_URL = '/remotes.json';

/**
 * Fetches the deployment manifest served beside the shell. It is read at run time, never bundled,
 * so moving or rolling back a remote is an edit of that file and needs no shell build. The server
 * may inline it in the page (`<script id="remotes-manifest">`) to save the round trip.
 */
export async function loadManifest(): Promise<DeploymentManifest> {
  const inline = document.getElementById('remotes-manifest');
  if (inline?.textContent) {
    return parseManifest(JSON.parse(inline.textContent));
  }
  let response: Response;
  try {
    response = await fetch(MANIFEST_URL, {
      cache: 'no-cache',
      headers: { Accept: 'application/json' },
    });
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
