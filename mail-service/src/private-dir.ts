import { chmodSync, mkdirSync } from 'node:fs';

/**
 * A folder of prospects' messages (the outbox, the mailbox): made if needed and kept to its owner
 * alone (0700), an existing one included. On a machine where the site's render processes run as
 * another user, that user cannot read a message even by a way Node's own checks miss.
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
