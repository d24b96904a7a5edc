/**
 * Moves what a site server kept in files (an earlier `npm start`, before the local run had a
 * database) into an empty PostgreSQL control plane, once and whole: the live manifest, the history
 * of its changes, the groups' deploy-token digests and the canary counts go in one transaction, so
 * a move that fails leaves the database empty and is tried again at the next start. The moved files
 * are then put aside in `<deployDir>/moved-to-postgres/`, where nothing reads them.
 *
 * The last good pages (`last-good/`) are not moved: they are a fallback made again from each page
 * the site serves.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { transaction } from '@site/postgres';
import type { CountRow, StoredDecision } from '../canary/counts';
import { History } from '../deploy/history';
import type { Logger } from '../http/logger';
import { live } from './index';
import { CHANNEL } from './postgres-change';
import { insertHistory } from './postgres-history';
import type { StoredToken } from './tokens';

/** The files of the file store that carry state; remotes.json stays, as the seed it always was. */
const MOVED = ['history.jsonl', 'group-tokens.json', 'canary-counts.json'] as const;

export const MOVED_DIR = 'moved-to-postgres';

interface SavedCounts {
  counts?: CountRow[];
  reports?: [string, number][];
  decisions?: StoredDecision[];
}

async function readJson<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(
      `${file} is not valid JSON (${(error as Error).message}): mend it or move it out of the deploy folder, then start again`,
      { cause: error },
    );
  }
}

/** Whether the deploy folder holds a file store's state beside its manifest. */
export function hasFileState(deployDir: string): boolean {
  return MOVED.some((name) => existsSync(path.join(deployDir, name)));
}

/**
 * Moves the file store of `deployDir` into the control plane of `pool`, which must be empty (its
 * live pointer never set): the caller checked, and the pointer is locked and checked again here,
 * so of replicas starting together one moves it. Resolves to what was moved, or undefined when
 * there was nothing to move (no manifest file) or another process moved it first.
 */
export async function moveInFiles(
  pool: Pool,
  deployDir: string,
  log: Logger,
): Promise<{ changes: number; tokens: number; counts: number } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(deployDir, 'remotes.json'), 'utf8');
  } catch {
    return undefined;
  }
  const first = live(text);
  const history = await new History(path.join(deployDir, 'history.jsonl')).read();
  const tokens =
    (await readJson<{ tokens?: StoredToken[] }>(path.join(deployDir, 'group-tokens.json')))
      ?.tokens ?? [];
  const saved = (await readJson<SavedCounts>(path.join(deployDir, 'canary-counts.json'))) ?? {};

  const movedIn = await transaction(pool, async (client) => {
    const locked = await client.query<{ version: string | null }>(
      'SELECT version FROM live_manifest WHERE id FOR UPDATE',
    );
    if (locked.rows[0]?.version) return false;
    // The manifests the history names were never kept by the files, only their versions.
    const versions = new Set(history.map((e) => e.manifestVersion));
    versions.delete(first.version);
    for (const version of versions) {
      await client.query(
        'INSERT INTO manifest_versions (version, body) VALUES ($1, NULL) ON CONFLICT DO NOTHING',
        [version],
      );
    }
    await client.query(
      `INSERT INTO manifest_versions (version, body) VALUES ($1, $2)
       ON CONFLICT (version) DO UPDATE SET body = EXCLUDED.body`,
      [first.version, text],
    );
    for (const { manifestVersion, ...draft } of history) {
      await insertHistory(client, [draft], manifestVersion);
    }
    for (const t of tokens) {
      await client.query(
        `INSERT INTO deploy_tokens (id, groups, digest, created_at, rotated_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [t.id, t.groups, t.digest, t.createdAt, t.rotatedAt ?? null, t.revokedAt ?? null],
      );
    }
    for (const row of saved.counts ?? []) {
      await client.query(
        `INSERT INTO canary_counts (group_name, version, second, views, errors)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [row.group, row.version, row.second, row.views, row.errors],
      );
    }
    for (const [nonce, expiresAt] of saved.reports ?? []) {
      await client.query(
        `INSERT INTO canary_reports (nonce, expires_at) VALUES ($1, to_timestamp($2 / 1000.0))
         ON CONFLICT DO NOTHING`,
        [nonce, expiresAt],
      );
    }
    for (const d of saved.decisions ?? []) {
      await client.query(
        `INSERT INTO canary_decisions (group_name, version, at, outcome, reason)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (group_name) DO NOTHING`,
        [d.group, d.version, d.at, d.outcome, d.reason],
      );
    }
    await client.query(
      'UPDATE live_manifest SET version = $1, seq = seq + 1, changed_at = now() WHERE id',
      [first.version],
    );
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, first.version]);
    return true;
  });
  if (!movedIn) return undefined;

  const aside = path.join(deployDir, MOVED_DIR);
  await fs.mkdir(aside, { recursive: true, mode: 0o700 });
  for (const name of MOVED) {
    await fs.rename(path.join(deployDir, name), path.join(aside, name)).catch(() => undefined);
  }
  const moved = {
    changes: history.length,
    tokens: tokens.length,
    counts: (saved.counts ?? []).length,
  };
  log.info(
    `site: moved the file store of ${deployDir} into PostgreSQL: manifest ${first.version}, ${moved.changes} history entries, ${moved.tokens} deploy tokens, ${moved.counts} canary count rows; the files are kept in ${aside} and no longer read`,
  );
  return moved;
}
