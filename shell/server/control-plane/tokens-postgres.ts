import type { Pool } from 'pg';
import {
  RevokedTokenError,
  newToken,
  publicRecord,
  verifyWith,
  type GroupToken,
  type IssuedToken,
  type StoredToken,
  type TokenStore,
} from './tokens';

interface TokenRow {
  id: string;
  groups: string[];
  digest: string;
  created_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, groups, digest, created_at, rotated_at, revoked_at';

const stored = (row: TokenRow): StoredToken => ({
  id: row.id,
  groups: row.groups,
  digest: row.digest,
  createdAt: row.created_at.toISOString(),
  ...(row.rotated_at ? { rotatedAt: row.rotated_at.toISOString() } : {}),
  ...(row.revoked_at ? { revokedAt: row.revoked_at.toISOString() } : {}),
});

/**
 * The group tokens of replicas, in the table `deploy_tokens` (migrations/004_deploy_tokens.sql).
 * Every call reads the token's row (by primary key): no replica keeps a copy, so a token made,
 * rotated or revoked through any replica holds on every replica from its next call, with no
 * notification to lose. While the database cannot be reached, a group token cannot be checked and
 * its call is refused as unavailable (the operator's token, from the environment, still works).
 */
export class PostgresTokenStore implements TokenStore {
  constructor(
    private readonly pool: Pool,
    private readonly unavailable: (error: unknown, what: string) => Error,
  ) {}

  verify(token: string): Promise<GroupToken | undefined> {
    return verifyWith(token, async (id) => {
      const rows = await this.query(
        `SELECT ${COLUMNS} FROM deploy_tokens WHERE id = $1`,
        [id],
        'the deploy token cannot be checked',
      );
      return rows[0] ? stored(rows[0]) : undefined;
    });
  }

  async list(): Promise<GroupToken[]> {
    const rows = await this.query(
      `SELECT ${COLUMNS} FROM deploy_tokens ORDER BY created_at, id`,
      [],
      'the deploy tokens cannot be listed',
    );
    return rows.map((row) => publicRecord(stored(row)));
  }

  async create(groups: readonly string[]): Promise<IssuedToken> {
    for (;;) {
      const made = newToken();
      const rows = await this.query(
        `INSERT INTO deploy_tokens (id, groups, digest) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
        [made.id, groups, made.digest],
        'nothing was changed',
      );
      // 48 random bits: an id already taken is all but impossible, and simply drawn again.
      if (rows[0]) return { token: made.token, record: publicRecord(stored(rows[0])) };
    }
  }

  async rotate(id: string): Promise<IssuedToken | undefined> {
    const made = newToken(id);
    const rows = await this.query(
      `UPDATE deploy_tokens SET digest = CASE WHEN revoked_at IS NULL THEN $2 ELSE digest END,
              rotated_at = CASE WHEN revoked_at IS NULL THEN now() ELSE rotated_at END
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, made.digest],
      'nothing was changed',
    );
    const row = rows[0];
    if (!row) return undefined;
    if (row.revoked_at) throw new RevokedTokenError(`token ${id} was revoked`);
    return { token: made.token, record: publicRecord(stored(row)) };
  }

  async revoke(id: string): Promise<GroupToken | undefined> {
    const rows = await this.query(
      `UPDATE deploy_tokens SET revoked_at = coalesce(revoked_at, now())
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
      'nothing was changed',
    );
    return rows[0] ? publicRecord(stored(rows[0])) : undefined;
  }

  private async query(sql: string, values: unknown[], what: string): Promise<TokenRow[]> {
    try {
      return (await this.pool.query<TokenRow>(sql, values)).rows;
    } catch (error) {
      throw this.unavailable(error, what);
    }
  }
}
