/**
 * What the outbox's operations kept beside outbox.ts run on, and the `id IN (...)` clauses they
 * share: the statements are looked up at each use, so that a closed outbox refuses them all.
 */
import type { Sql, Store } from './sql';

export interface OutboxContext {
  /** The store's statements; throws once the outbox is closed. */
  sql(): Sql;
  readonly store: Store;
  now(): number;
}

/** `(?, ?, ?)` for a list of values. */
export const list = (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`;
export const someIds = (ids: string[] | undefined): ids is string[] => !!ids && ids.length > 0;
/** `AND id IN (...)` for the ids given, or nothing when there are none (all of them). */
export const onlyIds = (ids: string[] | undefined) =>
  someIds(ids) ? `AND id IN ${list(ids)}` : '';
