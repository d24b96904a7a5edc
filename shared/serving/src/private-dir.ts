import { chmodSync, mkdirSync } from 'node:fs';

/**
 * A folder of the site's data (the mail-service's outbox and mailbox, the site server's deploy
 * folder: its manifest, history, tokens and canary counts): made if needed and kept to its owner
 * alone (0700), an existing one included. The site's render processes run as another user, which
 * then cannot read a message, a credential or who deployed what, even by a way Node's own checks
 * miss.
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
