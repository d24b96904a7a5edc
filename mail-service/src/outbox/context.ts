/**
 * What the outbox's operations kept beside outbox.ts run on, and the id lists they share: the
 * statements are looked up at each use, so that a closed outbox refuses them all.
 */
import type { Sql } from './sql';

export interface OutboxContext {
  /** The outbox's statements; throws once the outbox is closed. */
  sql(): Sql;
  now(): number;
}

export const someIds = (ids: string[] | undefined): ids is string[] => !!ids && ids.length > 0;

/**
 * The ids as one parameter for `($n::text[] IS NULL OR id = ANY($n))`: the ids given, or NULL
 * (every row) when there are none.
 */
export const idsOrAll = (ids: string[] | undefined): string[] | null => (someIds(ids) ? ids : null);
