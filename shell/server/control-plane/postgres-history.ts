/** The history of the control plane's changes in PostgreSQL: one row of `manifest_history` each. */
import type { Pool, PoolClient } from 'pg';
import type { HistoryEntry } from '../deploy/history';
import type { HistoryDraft } from './index';

interface HistoryRow {
  at: Date;
  by_name: string;
  action: HistoryEntry['action'];
  remote: string;
  from_version: HistoryEntry['from'];
  to_version: HistoryEntry['to'];
  reason: string;
  manifest_version: string;
  release_id: string | null;
  credential: string | null;
}

/** Every recorded change, oldest first; only one remote's when named. */
export async function readHistory(pool: Pool, remote?: string): Promise<HistoryEntry[]> {
  const { rows } = await pool.query<HistoryRow>(
    `SELECT at, by_name, action, remote, from_version, to_version, reason, manifest_version,
            release_id, credential
       FROM manifest_history
      WHERE $1::text IS NULL OR remote = $1
      ORDER BY id`,
    [remote ?? null],
  );
  return rows.map((r) => ({
    at: r.at.toISOString(),
    by: r.by_name,
    action: r.action,
    remote: r.remote,
    from: r.from_version,
    to: r.to_version,
    reason: r.reason,
    manifestVersion: r.manifest_version,
    ...(r.release_id ? { release: r.release_id } : {}),
    ...(r.credential ? { credential: r.credential } : {}),
  }));
}

/** The history rows of one change, inside its transaction. */
export async function insertHistory(
  client: PoolClient,
  entries: readonly HistoryDraft[],
  manifestVersion: string,
): Promise<void> {
  for (const entry of entries) {
    await client.query(
      `INSERT INTO manifest_history
         (at, by_name, action, remote, from_version, to_version, reason, manifest_version,
          release_id, credential)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10)`,
      [
        entry.at,
        entry.by,
        entry.action,
        entry.remote,
        entry.from === null ? null : JSON.stringify(entry.from),
        JSON.stringify(entry.to),
        entry.reason,
        manifestVersion,
        entry.release ?? null,
        entry.credential ?? null,
      ],
    );
  }
}
