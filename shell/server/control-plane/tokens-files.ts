import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ControlPlaneUnavailableError } from './index';
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

/**
 * The group tokens of a single site server: `<deployDir>/group-tokens.json`, digests only, readable
 * by the server's user alone. Read on every call (a handful of records, and deploy calls are rare),
 * so a change is in force on the next call; written whole to a temporary file and renamed over the
 * old one, one change at a time.
 */
export class FileTokenStore implements TokenStore {
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(deployDir: string) {
    this.file = path.join(deployDir, 'group-tokens.json');
  }

  verify(token: string): Promise<GroupToken | undefined> {
    return verifyWith(token, async (id) => (await this.read()).find((t) => t.id === id));
  }

  async list(): Promise<GroupToken[]> {
    return (await this.read()).map(publicRecord);
  }

  create(groups: readonly string[]): Promise<IssuedToken> {
    return this.change((tokens) => {
      let made = newToken();
      while (tokens.some((t) => t.id === made.id)) made = newToken();
      const stored: StoredToken = {
        id: made.id,
        groups: [...groups],
        createdAt: new Date().toISOString(),
        digest: made.digest,
      };
      return {
        tokens: [...tokens, stored],
        result: { token: made.token, record: publicRecord(stored) },
      };
    });
  }

  rotate(id: string): Promise<IssuedToken | undefined> {
    return this.change((tokens) => {
      const old = tokens.find((t) => t.id === id);
      if (!old) return { tokens, result: undefined };
      if (old.revokedAt !== undefined) throw new RevokedTokenError(`token ${id} was revoked`);
      const made = newToken(id);
      const stored: StoredToken = {
        ...old,
        digest: made.digest,
        rotatedAt: new Date().toISOString(),
      };
      return {
        tokens: tokens.map((t) => (t.id === id ? stored : t)),
        result: { token: made.token, record: publicRecord(stored) },
      };
    });
  }

  revoke(id: string): Promise<GroupToken | undefined> {
    return this.change((tokens) => {
      const old = tokens.find((t) => t.id === id);
      if (!old) return { tokens, result: undefined };
      const stored: StoredToken = { ...old, revokedAt: old.revokedAt ?? new Date().toISOString() };
      return {
        tokens: tokens.map((t) => (t.id === id ? stored : t)),
        result: publicRecord(stored),
      };
    });
  }

  private async read(): Promise<StoredToken[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ControlPlaneUnavailableError(
        `the group tokens in ${this.file} cannot be read (${(error as Error).message}); nothing was changed`,
      );
    }
    try {
      const parsed = JSON.parse(text) as { tokens?: unknown };
      if (!Array.isArray(parsed.tokens)) throw new Error('no "tokens" list');
      return parsed.tokens as StoredToken[];
    } catch (error) {
      // Refused rather than read as empty: an empty list would quietly end every team's token.
      throw new ControlPlaneUnavailableError(
        `the group tokens in ${this.file} are not valid (${(error as Error).message}); nothing was changed`,
      );
    }
  }

  /** One change at a time, each on the file the previous one left. */
  private change<T>(
    make: (tokens: StoredToken[]) => { tokens: StoredToken[]; result: T },
  ): Promise<T> {
    const run = this.queue.then(async () => {
      const before = await this.read();
      const { tokens, result } = make(before);
      if (tokens !== before) await this.write(tokens);
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(tokens: StoredToken[]): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const handle = await fs.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ tokens }, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, this.file);
  }
}
