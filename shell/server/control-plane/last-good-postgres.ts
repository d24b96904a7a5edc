import pg, { type Pool } from 'pg';
import type { LastGoodStore, PageOf, StoredPage } from '../pages/last-good';

/**
 * The last good pages of replicas, in PostgreSQL (migrations/006_last_good_pages.sql): whichever
 * replica composed a page keeps it for every replica, and one that starts later reads it.
 */
export class PostgresLastGoodStore implements LastGoodStore {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 2,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      // A page waiting for its stand-in must not wait long on a database that does not answer.
      query_timeout: 3000,
    });
    this.pool.on('error', () => undefined);
  }

  async get(page: PageOf): Promise<StoredPage | undefined> {
    const found = await this.pool.query<{ page: Buffer; good_at: Date }>(
      `SELECT page, good_at FROM last_good_pages
       WHERE group_name = $1 AND version = $2 AND path = $3`,
      [page.group, page.version, page.path],
    );
    const row = found.rows[0];
    return row ? { ...page, gzip: row.page, goodAt: row.good_at.getTime() } : undefined;
  }

  async put(
    page: StoredPage,
    { maxPages, staleBefore }: { maxPages: number; staleBefore: number },
  ): Promise<void> {
    await this.pool.query(
      `INSERT INTO last_good_pages (group_name, version, path, good_at, page)
       VALUES ($1, $2, $3, to_timestamp($4 / 1000.0), $5)
       ON CONFLICT (group_name, version, path) DO UPDATE
         SET good_at = EXCLUDED.good_at, page = EXCLUDED.page`,
      [page.group, page.version, page.path, page.goodAt, page.gzip],
    );
    await this.pool.query(
      `DELETE FROM last_good_pages
       WHERE good_at < to_timestamp($2 / 1000.0)
          OR (group_name, version, path) IN (
            SELECT group_name, version, path FROM last_good_pages
            ORDER BY good_at DESC OFFSET $1)`,
      [maxPages, staleBefore],
    );
  }

  async touch(page: PageOf, at: number): Promise<void> {
    await this.pool.query(
      `UPDATE last_good_pages SET good_at = greatest(good_at, to_timestamp($4 / 1000.0))
       WHERE group_name = $1 AND version = $2 AND path = $3`,
      [page.group, page.version, page.path, at],
    );
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
