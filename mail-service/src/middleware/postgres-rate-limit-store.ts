/**
 * express-rate-limit's counters in PostgreSQL (table `mail_rate_limits`), so that every instance
 * counts a client against one allowance: a fixed window per client, counted with one
 * `INSERT … ON CONFLICT … DO UPDATE`, which PostgreSQL applies atomically however many instances
 * count at once. Keys are stored as SHA-256 hashes: client addresses do not reach the database.
 */
import { createHash } from 'node:crypto';
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Postgres } from '../postgres';

const hashed = (key: string) => createHash('sha256').update(`rate-limit\n${key}`).digest('hex');

export class PostgresRateLimitStore implements Store {
  /** Counts are shared: express-rate-limit may use one store for several limiters. */
  readonly localKeys = false;
  private windowMs = 60_000;
  private pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pg: Postgres,
    private readonly now: () => number = Date.now,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
    // Windows that have ended are of no use to anyone; without this the table keeps a row for
    // every client ever seen.
    this.pruneTimer = setInterval(() => void this.prune().catch(() => undefined), this.windowMs);
    this.pruneTimer.unref();
  }

  /**
   * Counts one request. While the database cannot be reached the request is not counted and goes
   * on: the outbox is on the same database, so it answers 503 (nothing is stored to limit).
   */
  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = this.now();
    let rows: { hits: number; reset_at: number }[];
    try {
      rows = await this.count(key, now);
    } catch {
      return { totalHits: 0, resetTime: new Date(now + this.windowMs) };
    }
    const row = rows[0] as { hits: number; reset_at: number };
    return { totalHits: row.hits, resetTime: new Date(row.reset_at) };
  }

  private async count(key: string, now: number): Promise<{ hits: number; reset_at: number }[]> {
    await this.pg.ready;
    const { rows } = await this.pg.pool.query<{ hits: number; reset_at: number }>(
      `INSERT INTO mail_rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, $2::bigint + $3::bigint)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= $2 THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= $2 THEN $2::bigint + $3::bigint ELSE r.reset_at END
       RETURNING hits, reset_at`,
      [hashed(key), now, this.windowMs],
    );
    return rows;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    await this.pg.ready;
    const { rows } = await this.pg.pool.query<{ hits: number; reset_at: number }>(
      'SELECT hits, reset_at FROM mail_rate_limits WHERE key = $1 AND reset_at > $2',
      [hashed(key), this.now()],
    );
    const row = rows[0];
    return row ? { totalHits: row.hits, resetTime: new Date(row.reset_at) } : undefined;
  }

  /**
   * Gives back one hit of the current window (a request that is not to count). While the
   * database cannot be reached there is nothing to give back: `increment` did not count.
   */
  async decrement(key: string): Promise<void> {
    try {
      await this.pg.ready;
      await this.pg.pool.query(
        `UPDATE mail_rate_limits SET hits = GREATEST(hits - 1, 0)
         WHERE key = $1 AND reset_at > $2`,
        [hashed(key), this.now()],
      );
    } catch {
      // See above.
    }
  }

  async resetKey(key: string): Promise<void> {
    await this.pg.ready;
    await this.pg.pool.query('DELETE FROM mail_rate_limits WHERE key = $1', [hashed(key)]);
  }

  async resetAll(): Promise<void> {
    await this.pg.ready;
    await this.pg.pool.query('DELETE FROM mail_rate_limits');
  }

  async prune(): Promise<number> {
    await this.pg.ready;
    return (
      (await this.pg.pool.query('DELETE FROM mail_rate_limits WHERE reset_at <= $1', [this.now()]))
        .rowCount ?? 0
    );
  }

  shutdown(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
  }
}
