/**
 * How accepted messages get into the outbox: group commit (one transaction, one commit to disk,
 * for all the messages that arrive in one turn of the event loop) and idempotency keys scoped to
 * the client and bound to the message.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CONTACT_FIELDS, payloadValues, type ContactMessage } from '@site/contracts/contact';
import { announceQueued, type Sql } from './sql';
import { emailDomainOf } from './stored';

export interface NewMessage {
  payload: ContactMessage;
  /** The spam signals it showed (see src/spam.ts), kept with it; empty when none. */
  spamReasons: string[];
  /** Held as spam (kept for the digest to sales, delivered only when released), not queued. */
  held: boolean;
  /** Who sent it, as the rate limiter counts them; stored only as a hash. */
  client: string;
  idempotencyKey?: string | undefined;
}

export type EnqueueResult =
  | { outcome: 'stored'; messageId: string }
  /** The key was used before for the same message: nothing new was stored. */
  | { outcome: 'replay'; messageId: string }
  /** The key was used before by this client for a different message. */
  | { outcome: 'conflict' };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The hash a message's content is compared by: its validated, trimmed fields, in the table's order. */
export const bodyHash = (payload: ContactMessage): string =>
  sha256(JSON.stringify([...payloadValues(CONTACT_FIELDS, payload), payload.website ?? '']));

// Keys are scoped to the client: another client using the same key gets its own message, and a
// client cannot learn or claim someone else's. The raw key and address are never stored.
export const scopedKey = (client: string, key: string) => sha256(`${client}\n${key}`);
export const clientHash = (client: string) => sha256(`client\n${client}`).slice(0, 32);

interface PendingInsert {
  id: string;
  message: NewMessage;
  key: string | null;
  hash: string;
  resolve: (result: EnqueueResult) => void;
  reject: (error: unknown) => void;
}

const BY_KEY = 'SELECT id, body_hash FROM mail_messages WHERE idempotency_key = $1';

/** What a key found stored stands for: the same message (a replay) or another (a conflict). */
const judged = (row: { id: string; body_hash: string | null }, hash: string): EnqueueResult =>
  row.body_hash === hash ? { outcome: 'replay', messageId: row.id } : { outcome: 'conflict' };

/**
 * Inserts are group-committed: the messages that arrive in one turn of the event loop are written
 * in one transaction, and each request is answered only after that transaction has committed. One
 * commit to disk then covers many messages, which is what keeps the durable endpoint fast under
 * load.
 */
export class Intake {
  private pending: PendingInsert[] = [];
  private readonly pendingKeys = new Map<string, { hash: string; promise: Promise<string> }>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  /**
   * Stores a message; resolves once it is committed durably. A key this client used before
   * (through any instance) resolves with the message stored under it and stores
   * nothing, or with a conflict when that message was a different one.
   */
  async enqueue(message: NewMessage): Promise<EnqueueResult> {
    const hash = bodyHash(message.payload);
    const key =
      message.idempotencyKey === undefined
        ? null
        : scopedKey(message.client, message.idempotencyKey);
    if (key !== null) {
      const earlier = await this.lookup(key, hash);
      if (earlier) return earlier;
    }
    let resolveId: (id: string) => void = () => {};
    const idPromise = new Promise<string>((r) => (resolveId = r));
    const promise = new Promise<EnqueueResult>((resolve, reject) => {
      this.pending.push({
        id: randomUUID(),
        message,
        key,
        hash,
        resolve: (result) => {
          if (result.outcome !== 'conflict') resolveId(result.messageId);
          resolve(result);
        },
        reject,
      });
    });
    if (key !== null) {
      this.pendingKeys.set(key, { hash, promise: idPromise });
      promise.catch(() => {});
    }
    // setImmediate runs after the poll phase, so every request read in this turn joins the batch.
    if (this.pending.length === 1) setImmediate(() => void this.flush());
    return promise;
  }

  /** What an idempotency key of this client already stands for; undefined when it is new. */
  replayOf(client: string, idempotencyKey: string, payload: ContactMessage) {
    return this.lookup(scopedKey(client, idempotencyKey), bodyHash(payload));
  }

  private async lookup(key: string, hash: string): Promise<EnqueueResult | undefined> {
    const inFlight = this.pendingKeys.get(key);
    if (inFlight) {
      if (inFlight.hash !== hash) return { outcome: 'conflict' };
      return { outcome: 'replay', messageId: await inFlight.promise };
    }
    const [existing] = await this.sql.all<{ id: string; body_hash: string | null }>(BY_KEY, [key]);
    return existing && judged(existing, hash);
  }

  /** Commits the pending inserts now (and waits for a commit under way). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.flushing = this.commit(batch).finally(() => {
      this.flushing = undefined;
      for (const p of batch) if (p.key !== null) this.pendingKeys.delete(p.key);
    });
    await this.flushing;
  }

  private async commit(batch: PendingInsert[]): Promise<void> {
    let results: EnqueueResult[];
    try {
      results = await this.sql.transaction((tx) => this.insert(tx, batch));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i] as EnqueueResult));
  }

  private async insert(tx: Sql, batch: PendingInsert[]): Promise<EnqueueResult[]> {
    const at = this.now();
    const results: EnqueueResult[] = [];
    let queued = false;
    for (const p of batch) {
      const { held, spamReasons, payload } = p.message;
      const client = clientHash(p.message.client);
      // Fair order: a client's first waiting message is in lane 1, its second in lane 2, ...
      const lane = held
        ? '0'
        : "(SELECT COUNT(*) + 1 FROM mail_messages WHERE client_hash = $4 AND status = 'queued')";
      const stored = await tx.run(
        `INSERT INTO mail_messages (id, idempotency_key, body_hash, client_hash, status, payload,
           email_domain, created_at, queued_at, next_attempt_at, updated_at, spam_reasons, lane)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $8, $8, $9, ${lane})
         ON CONFLICT (idempotency_key) DO NOTHING`,
        [
          p.id,
          p.key,
          p.hash,
          client,
          held ? 'spam' : 'queued',
          JSON.stringify(payload),
          emailDomainOf(payload.user.email),
          at,
          spamReasons.length > 0 ? JSON.stringify(spamReasons) : null,
        ],
      );
      // Only another instance can have taken the key in the meantime.
      const [existing] =
        stored === 0 && p.key !== null
          ? await tx.all<{ id: string; body_hash: string | null }>(BY_KEY, [p.key])
          : [];
      if (stored === 0 && !existing) throw new Error('a message was neither stored nor found');
      results.push(existing ? judged(existing, p.hash) : { outcome: 'stored', messageId: p.id });
      queued ||= stored > 0 && !held;
    }
    // Announced in the same transaction, so only a committed message is.
    if (queued) await announceQueued(tx);
    return results;
  }
}
