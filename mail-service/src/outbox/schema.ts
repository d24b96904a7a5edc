/**
 * The outbox's SQLite file: its settings, its one table and the migration from earlier versions,
 * and how a stored payload is read back.
 */
import { z } from 'zod';
import type { ContactMessage } from '@site/contracts/contact';
import {
  openSqlite,
  pragmaValue,
  setPragma,
  statement,
  transaction,
  type SqliteDb,
} from './sqlite';

export type MessageStatus = 'queued' | 'delivered' | 'failed' | 'spam';
export const MESSAGE_STATUSES: readonly MessageStatus[] = ['queued', 'delivered', 'failed', 'spam'];

// What was stored is read back leniently: a message accepted under older rules is still delivered.
const storedPayload = z.object({
  user: z.object({ name: z.string(), email: z.string() }),
  message: z.object({ subject: z.string(), body: z.string() }),
  website: z.string().optional(),
});

export function readPayload(text: string | null): ContactMessage | undefined {
  if (text === null) return undefined;
  try {
    const parsed = storedPayload.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The part of an address that is kept after retention: its mail domain. */
export const emailDomainOf = (email: string) =>
  email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Spam reasons as stored (a JSON array, or NULL), read back. */
export function readReasons(text: string | null): string[] {
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

const SCHEMA_VERSION = 5;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS messages (
    id              TEXT PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    body_hash       TEXT,
    client_hash     TEXT,
    lane            INTEGER NOT NULL DEFAULT 1,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
    payload         TEXT,
    email_domain    TEXT,
    created_at      INTEGER NOT NULL,
    -- The start of the current retry period: the acceptance, or the latest requeue.
    queued_at       INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    done_rcpts      TEXT,
    delivered_at    INTEGER,
    acknowledged_at INTEGER,
    redacted_at     INTEGER,
    updated_at      INTEGER NOT NULL,
    -- Why a message was judged spam: a JSON array of reasons; NULL for a message that was not.
    spam_reasons    TEXT,
    -- When an operator released it from spam to the queue.
    released_at     INTEGER,
    -- When a held message was listed in a digest to sales; retention deletes none before.
    digested_at     INTEGER
  ) STRICT;
  CREATE INDEX IF NOT EXISTS messages_fair ON messages (status, lane, created_at);
  CREATE INDEX IF NOT EXISTS messages_client ON messages (client_hash, status);
  CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
  -- The server secret when FORM_TOKEN_SECRET is unset: made once, kept across restarts.
  CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  -- One row per erasure request served: an HMAC of the address (never the address), the count.
  -- The digest of held messages: when the last one went out, and who is sending one now.
  CREATE TABLE IF NOT EXISTS digest (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    last_sent_at  INTEGER,
    claimed_until INTEGER
  ) STRICT;
  CREATE TABLE IF NOT EXISTS erasures (
    id           INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    address_hmac TEXT NOT NULL,
    messages     INTEGER NOT NULL,
    files        INTEGER NOT NULL
  ) STRICT;
`;

/** The reason every spam message stored before reasons were kept had: the honeypot. */
export const LEGACY_SPAM_REASONS = JSON.stringify(['honeypot field filled']);

/** Version 1 to the current schema: the table is made again. */
function fromVersion1(db: SqliteDb): void {
  db.exec('DROP INDEX IF EXISTS messages_due; ALTER TABLE messages RENAME TO messages_v1;');
  db.exec(SCHEMA);
  // Version 1 keys were global and unhashed: they cannot be scoped afterwards, so they go.
  db.exec(`INSERT INTO messages (id, status, payload, created_at, queued_at, attempts,
             next_attempt_at, last_error, delivered_at, updated_at)
           SELECT id, status, payload, created_at, created_at, attempts, next_attempt_at,
             last_error, CASE status WHEN 'delivered' THEN updated_at END, updated_at
           FROM messages_v1;
           DROP TABLE messages_v1;`);
  const setDomain = statement<[string, string]>(
    db,
    'UPDATE messages SET email_domain = ? WHERE id = ?',
  );
  for (const row of statement<[], { id: string; payload: string }>(
    db,
    'SELECT id, payload FROM messages',
  ).all()) {
    const p = readPayload(row.payload);
    if (p) {
      setDomain.run(emailDomainOf(p.user.email), row.id);
    }
  }
}

/**
 * Version 2 to 3: the retry period gets a start of its own (`queued_at`), so that a requeue no
 * longer rewrites `created_at`, the acceptance time the delivered e-mail shows. Until now each
 * message's period started at `created_at`.
 */
function fromVersion2(db: SqliteDb): void {
  db.exec(`ALTER TABLE messages ADD COLUMN queued_at INTEGER NOT NULL DEFAULT 0;
           UPDATE messages SET queued_at = created_at;`);
}

/**
 * Version 3 to 4: spam keeps its reasons and a release time; the tables of the server secret and
 * the erasure audit are new (made by SCHEMA). Until now only the honeypot made a message spam.
 */
function fromVersion3(db: SqliteDb): void {
  db.exec(`ALTER TABLE messages ADD COLUMN spam_reasons TEXT;
           ALTER TABLE messages ADD COLUMN released_at INTEGER;`);
}

/**
 * Version 4 to 5: held messages are listed in a daily digest to sales; a message remembers when
 * it was, and the digest table (made by SCHEMA) when the last one went out.
 */
function fromVersion4(db: SqliteDb): void {
  db.exec('ALTER TABLE messages ADD COLUMN digested_at INTEGER;');
}

/** Brings an outbox written by an earlier version to the current schema, keeping every row. */
function migrate(db: SqliteDb): void {
  const version = Number(pragmaValue(db, 'user_version'));
  if (version >= SCHEMA_VERSION) return;
  const old = statement<[], { n: number }>(
    db,
    "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'messages'",
  ).get();
  transaction(db, () => {
    if (!old || old.n === 0) db.exec(SCHEMA);
    else if (version < 2) fromVersion1(db);
    else {
      if (version < 3) fromVersion2(db);
      if (version < 4) fromVersion3(db);
      fromVersion4(db);
      db.exec(SCHEMA);
    }
    statement<[string]>(
      db,
      "UPDATE messages SET spam_reasons = ? WHERE status = 'spam' AND spam_reasons IS NULL",
    ).run(LEGACY_SPAM_REASONS);
    setPragma(db, `user_version = ${SCHEMA_VERSION}`);
  });
}

/** The open outbox file and the clock: what each part of the outbox works with. */
export interface OutboxDb {
  readonly db: SqliteDb;
  readonly now: () => number;
}

/**
 * Opens the outbox file in WAL mode with synchronous=FULL, so that a commit has reached the disk
 * when it returns, and brings it to the current schema.
 */
export function openDatabase(file: string): SqliteDb {
  const db = openSqlite(file);
  setPragma(db, 'journal_mode = WAL');
  setPragma(db, 'synchronous = FULL');
  setPragma(db, 'busy_timeout = 5000');
  migrate(db);
  return db;
}
