import type { DeploymentManifest } from '../shared/src/contracts/manifest';

export function buildManifest(options?: {
  versions?: Record<string, string>;
  dists?: Record<string, string>;
  env?: Record<string, string | undefined>;
}): Promise<DeploymentManifest>;
export function writeManifest(file: string, manifest: DeploymentManifest): Promise<void>;
