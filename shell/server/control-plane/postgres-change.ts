/**
 * A change to the live manifest in PostgreSQL, as one compare-and-swap transaction: the pointer
 * locked and compared with the change's base, the version, its history and the pointer written,
 * the replicas notified, and no commit once the change's deadline has passed.
 */
import type { ClientBase, Pool } from 'pg';
import {
  holdConnection,
  isUnreachable as unreachable,
  reasonOf,
  type HeldConnection,
} from '@site/postgres';
import {
  ControlPlaneUnavailableError,
  DeadlinePassedError,
  NO_VERSION,
  StaleManifestError,
  live,
  type HistoryDraft,
  type LiveManifest,
} from './index';
import { insertHistory } from './postgres-history';

/** The channel on which a change names the manifest version it made live. */
export const CHANNEL = 'manifest_live';

/** Whether the error is the database out of reach, this control plane's own such error included. */
export const isUnreachable = (error: unknown): boolean =>
  error instanceof ControlPlaneUnavailableError || unreachable(error);

export interface LiveRow {
  seq: string;
  version: string | null;
  body: string | null;
}

/**
 * The compare-and-swap: `text` goes live with `entries` if the live version is still `base`.
 * The live pointer's row lock orders concurrent changes; the loser reads the winner's version.
 * `adopt` takes the pointer as committed, before the connection is handed back.
 */
export async function commitChange(
  pool: Pool,
  text: string,
  base: string,
  entries: readonly HistoryDraft[],
  deadline: Date | undefined,
  adopt: (row: LiveRow, parsed: LiveManifest) => void,
): Promise<LiveManifest> {
  const next = live(text);
  let held: HeldConnection;
  try {
    held = await holdConnection(pool);
  } catch (error) {
    throw unavailable(error, false);
  }
  const { client } = held;
  let committing = false;
  let failed = false;
  try {
    await client.query('BEGIN');
    const locked = await client.query<{ version: string | null }>(
      'SELECT version FROM live_manifest WHERE id FOR UPDATE',
    );
    const before = locked.rows[0]?.version ?? NO_VERSION;
    if (before !== base) {
      await client.query('ROLLBACK');
      throw new StaleManifestError(before);
    }
    await client.query(
      `INSERT INTO manifest_versions (version, body) VALUES ($1, $2)
       ON CONFLICT (version) DO NOTHING`,
      [next.version, text],
    );
    await insertHistory(client, entries, next.version);
    const moved = await client.query<{ seq: string }>(
      `UPDATE live_manifest SET version = $1, seq = seq + 1, changed_at = now()
        WHERE id RETURNING seq`,
      [next.version],
    );
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, next.version]);
    if (deadline) await inTime(client, deadline);
    committing = true;
    await client.query('COMMIT');
    adopt({ seq: moved.rows[0]?.seq ?? '0', version: next.version, body: text }, next);
    return next;
  } catch (error) {
    if (error instanceof StaleManifestError) throw error;
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof DeadlinePassedError) throw error;
    // The session ended by the database at the deadline (idle_in_transaction_session_timeout)
    // rolled the change back.
    if (deadline && !committing && Date.now() >= deadline.getTime()) {
      throw new DeadlinePassedError(deadline);
    }
    if (isUnreachable(error)) throw unavailable(error, committing);
    throw error;
  } finally {
    // A connection that failed mid-transaction is not handed out again.
    held.release(failed);
  }
}

/**
 * The last statement before COMMIT: the database's own clock must still be before the deadline,
 * and the session may stay idle in this transaction only until it. Should this process stall
 * between here and its COMMIT (stopped, swapped out), the database ends the session at the
 * deadline and the change is rolled back: no change goes live after its deadline, so a client that
 * gave up on it at the deadline is told the truth when it reads the manifest.
 */
export async function inTime(client: ClientBase, deadline: Date): Promise<void> {
  // One statement: the time left is read and made the session's limit at the same moment.
  // set_config(…, true) is SET LOCAL: for this transaction only.
  const { rows } = await client.query<{ left_ms: string }>(
    `SELECT left_ms,
            set_config('idle_in_transaction_session_timeout', ms, true),
            set_config('statement_timeout', ms, true)
       FROM (SELECT left_ms, least(left_ms, 2147483647)::text AS ms
               FROM (SELECT floor(extract(epoch FROM ($1::timestamptz - clock_timestamp())) * 1000)::bigint
                            AS left_ms) AS t
              WHERE left_ms > 0) AS limits`,
    [deadline.toISOString()],
  );
  // No row: no time left, and nothing was set.
  if (rows.length === 0) throw new DeadlinePassedError(deadline);
}

function unavailable(error: unknown, committing: boolean): ControlPlaneUnavailableError {
  return new ControlPlaneUnavailableError(
    committing
      ? `the control-plane database became unreachable while the change was committed (${reasonOf(error)}): it may or may not be live; read the manifest and its history before retrying`
      : `the control-plane database is unreachable: ${reasonOf(error)}; nothing was changed`,
  );
}
