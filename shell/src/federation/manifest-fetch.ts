import { ManifestError, readManifest, type DeploymentManifest } from '@site/contracts';

/** The live manifest fetched from `url`, for a page that does not embed one (the dev server). */
export async function fetchManifest(url: string): Promise<DeploymentManifest> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new ManifestError(
      `the deployment manifest ${url} could not be fetched (${String(error)})`,
    );
  }
  if (!response.ok) {
    throw new ManifestError(`the deployment manifest ${url} answered HTTP ${response.status}`);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ManifestError(`the deployment manifest ${url} is not valid JSON`);
  }
  return readManifest(json);
}
