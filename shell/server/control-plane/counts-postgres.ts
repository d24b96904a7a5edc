import pg, { type Pool } from 'pg';
import { transaction } from '@site/postgres';
import type { Counts } from '@site/contracts/canary-judgment';
import type { CanaryCountStore, CountRow, StoredDecision, TokenReport } from '../canary/counts';

/**
 * The canary counts of replicas, in PostgreSQL (migrations/005_canary_counts.sql): each flush adds
 * a replica's rows in one transaction (an upsert that adds), and its token reports count only for
 * nonces no replica stored before (`ON CONFLICT DO NOTHING ... RETURNING`). The judging lease is one
 * row, taken when it is free or expired and renewed by its holder: a replica that dies holds it no
 * longer than one lease.
 */
export class PostgresCountStore implements CanaryCountStore {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 2,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      query_timeout: 10_000,
    });
    this.pool.on('error', () => undefined);
  }

  async add(rows: readonly CountRow[], reports: readonly TokenReport[]): Promise<void> {
    await transaction(this.pool, async (client) => {
      const counted = new Map<string, CountRow>();
      for (const row of rows) counted.set(key(row), { ...row });
      if (reports.length) {
        const fresh = await client.query<{ nonce: string }>(
          `INSERT INTO canary_reports (nonce, expires_at)
           SELECT n, to_timestamp(e / 1000.0) FROM unnest($1::text[], $2::float8[]) AS r(n, e)
           ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
          [reports.map((r) => r.nonce), reports.map((r) => r.expiresAt)],
        );
        const news = new Set(fresh.rows.map((r) => r.nonce));
        for (const report of reports) {
          if (!news.has(report.nonce)) continue;
          const row = counted.get(key(report)) ?? { ...report, views: 0, errors: 0 };
          row.errors += 1;
          counted.set(key(report), row);
        }
      }
      const all = [...counted.values()];
      if (all.length) {
        await client.query(
          `INSERT INTO canary_counts (group_name, version, second, views, errors)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
           ON CONFLICT (group_name, version, second) DO UPDATE
             SET views = canary_counts.views + EXCLUDED.views,
                 errors = canary_counts.errors + EXCLUDED.errors`,
          [
            all.map((r) => r.group),
            all.map((r) => r.version),
            all.map((r) => r.second),
            all.map((r) => r.views),
            all.map((r) => r.errors),
          ],
        );
      }
    });
  }

  async sum(group: string, version: string, fromSecond: number): Promise<Counts> {
    const { rows } = await this.pool.query<{ views: string | null; errors: string | null }>(
      `SELECT sum(views) AS views, sum(errors) AS errors FROM canary_counts
        WHERE group_name = $1 AND version = $2 AND second >= $3`,
      [group, version, fromSecond],
    );
    return { views: Number(rows[0]?.views ?? 0), errors: Number(rows[0]?.errors ?? 0) };
  }

  async lease(holder: string, ms: number): Promise<boolean> {
    const { rows } = await this.pool.query(
      `INSERT INTO canary_judge (id, holder, until)
       VALUES (true, $1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
        WHERE canary_judge.holder = EXCLUDED.holder OR canary_judge.until < clock_timestamp()
       RETURNING holder`,
      [holder, ms],
    );
    return rows.length === 1;
  }

  async decide(d: StoredDecision): Promise<void> {
    await this.pool.query(
      `INSERT INTO canary_decisions (group_name, version, at, outcome, reason)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (group_name) DO UPDATE SET version = EXCLUDED.version, at = EXCLUDED.at,
         outcome = EXCLUDED.outcome, reason = EXCLUDED.reason`,
      [d.group, d.version, d.at, d.outcome, d.reason],
    );
  }

  async decisions(): Promise<StoredDecision[]> {
    const { rows } = await this.pool.query<{
      group_name: string;
      version: string;
      at: Date;
      outcome: StoredDecision['outcome'];
      reason: string;
    }>('SELECT group_name, version, at, outcome, reason FROM canary_decisions');
    return rows.map((r) => ({
      group: r.group_name,
      version: r.version,
      at: r.at.toISOString(),
      outcome: r.outcome,
      reason: r.reason,
    }));
  }

  async prune(beforeSecond: number): Promise<void> {
    await this.pool.query('DELETE FROM canary_counts WHERE second < $1', [beforeSecond]);
    await this.pool.query('DELETE FROM canary_reports WHERE expires_at < now()');
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

const key = (row: { group: string; version: string; second: number }) =>
  `${row.group}\n${row.version}\n${row.second}`;
