import type { RemoteDeployment } from '@site/contracts';
import { sha256Integrity } from '@site/contracts/integrity';

export class PinError extends Error {
  override name = 'PinError';
}

/**
 * Checks a remote's Node build against the SHA-256 its manifest entry pinned when the version was
 * deployed. A build without a pin, or that differs from it, is never run: a folder changed after
 * its deploy (by mistake or by someone who should not) is not the code that was checked.
 */
export function checkServerPin(url: string, remote: RemoteDeployment, text: string): void {
  const owner = `${remote.name}@${remote.version}`;
  const pinned = remote.serverIntegrity;
  if (!pinned) {
    throw new PinError(`${url} of ${owner} has no pinned SHA-256 (serverIntegrity): not run`);
  }
  const served = sha256Integrity(text);
  if (served !== pinned) {
    throw new PinError(
      `${url} of ${owner} does not match its pinned SHA-256 (pinned ${pinned}, served ${served}): not run`,
    );
  }
}
