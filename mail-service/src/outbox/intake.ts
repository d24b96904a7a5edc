/**
 * How accepted messages get into the outbox: group commit (one transaction, one fsync, for all
 * the messages that arrive in one turn of the event loop) and idempotency keys scoped to the
 * client and bound to the message.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CONTACT_FIELDS, payloadValues, type ContactMessage } from '@site/contracts/contact';
import { emailDomainOf, type OutboxDb } from './schema';
import { statement, transaction, type SqliteDb } from './sqlite';

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

function prepare(db: SqliteDb) {
  return {
    insert: statement<
      [
        string,
        string | null,
        string,
        string,
        number,
        string,
        string,
        string,
        number,
        number,
        number,
        number,
        string | null,
      ]
    >(
      db,
      `INSERT INTO messages (id, idempotency_key, body_hash, client_hash, lane, status, payload,
         email_domain, created_at, queued_at, next_attempt_at, updated_at, spam_reasons)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`,
    ),
    byKey: statement<[string], { id: string; body_hash: string | null }>(
      db,
      'SELECT id, body_hash FROM messages WHERE idempotency_key = ?',
    ),
    queuedOfClient: statement<[string], { n: number }>(
      db,
      "SELECT COUNT(*) AS n FROM messages WHERE client_hash = ? AND status = 'queued'",
    ),
  };
}

/**
 * Inserts are group-committed: the messages that arrive in one turn of the event loop are written
 * in one transaction, and each request is answered only after that transaction has committed. One
 * fsync then covers many messages, which is what keeps the durable endpoint fast under load.
 */
export class Intake {
  private pending: PendingInsert[] = [];
  private readonly pendingKeys = new Map<string, { hash: string; promise: Promise<string> }>();
  private flushScheduled = false;
  private readonly statements: ReturnType<typeof prepare>;

  constructor(private readonly o: OutboxDb) {
    this.statements = prepare(o.db);
  }

  /**
   * Stores a message; resolves once it is committed to disk. A key this client used before
   * resolves with the message stored under it (and stores nothing), or with a conflict when that
   * message was a different one.
   */
  enqueue(message: NewMessage): Promise<EnqueueResult> {
    const hash = bodyHash(message.payload);
    const key =
      message.idempotencyKey === undefined
        ? null
        : scopedKey(message.client, message.idempotencyKey);
    if (key !== null) {
      const earlier = this.lookup(key, hash);
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
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // setImmediate runs after the poll phase, so every request read in this turn joins the batch.
      setImmediate(() => this.flush());
    }
    return promise;
  }

  /**
   * What an idempotency key of this client already stands for, if anything: the same message
   * (a replay) or a different one (a conflict). Undefined when the key is new.
   */
  replayOf(
    client: string,
    idempotencyKey: string,
    payload: ContactMessage,
  ): Promise<EnqueueResult> | undefined {
    return this.lookup(scopedKey(client, idempotencyKey), bodyHash(payload));
  }

  private lookup(key: string, hash: string): Promise<EnqueueResult> | undefined {
    const inFlight = this.pendingKeys.get(key);
    if (inFlight) {
      if (inFlight.hash !== hash) return Promise.resolve({ outcome: 'conflict' });
      return inFlight.promise.then((messageId) => ({ outcome: 'replay', messageId }));
    }
    const existing = this.statements.byKey.get(key);
    if (!existing) return undefined;
    if (existing.body_hash !== hash) return Promise.resolve({ outcome: 'conflict' });
    return Promise.resolve({ outcome: 'replay', messageId: existing.id });
  }

  /** Commits the pending inserts now. */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const results: EnqueueResult[] = [];
    try {
      const at = this.o.now();
      transaction(this.o.db, () => {
        for (const p of batch) {
          const client = clientHash(p.message.client);
          const spam = p.message.held;
          const lane = spam ? 0 : this.statements.queuedOfClient.get(client)!.n + 1;
          const info = this.statements.insert.run(
            p.id,
            p.key,
            p.hash,
            client,
            lane,
            spam ? 'spam' : 'queued',
            JSON.stringify(p.message.payload),
            emailDomainOf(p.message.payload.user.email),
            at,
            at,
            at,
            at,
            p.message.spamReasons.length > 0 ? JSON.stringify(p.message.spamReasons) : null,
          );
          // Only another process sharing this file can have taken the key in the meantime.
          const existing =
            info.changes === 0 && p.key !== null ? this.statements.byKey.get(p.key) : undefined;
          results.push(
            existing
              ? existing.body_hash === p.hash
                ? { outcome: 'replay', messageId: existing.id }
                : { outcome: 'conflict' }
              : { outcome: 'stored', messageId: p.id },
          );
        }
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    } finally {
      for (const p of batch) if (p.key !== null) this.pendingKeys.delete(p.key);
    }
    batch.forEach((p, i) => p.resolve(results[i] as EnqueueResult));
  }
}
