/**
 * What every part of the service holds: the outbox, whichever store it runs on (outbox.ts).
 */
import type { Outbox } from './outbox';

export type OutboxStore = Outbox;

/** What an operator reads when the store cannot be used: an outage, not a configuration error. */
export const storeUnavailableHint = (kind: OutboxStore['kind']): string =>
  kind === 'postgres'
    ? 'the database (DATABASE_URL) cannot be reached; it is used again as soon as it answers'
    : 'the outbox file in DATA_DIR cannot be read or written (disk full, permissions)';
