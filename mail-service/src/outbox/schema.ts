/**
 * The outbox's SQLite file: its settings, its one table and the migration from earlier versions,
 * and how a stored payload is read back.
 */
import Database from 'better-sqlite3';
import { z } from 'zod';
import type { ContactMessage } from '@site/shared/contact';

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

const SCHEMA_VERSION = 3;

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
    updated_at      INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS messages_fair ON messages (status, lane, created_at);
  CREATE INDEX IF NOT EXISTS messages_client ON messages (client_hash, status);
  CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
`;

/** Version 1 to the current schema: the table is made again. */
function fromVersion1(db: Database.Database): void {
  db.exec('DROP INDEX IF EXISTS messages_due; ALTER TABLE messages RENAME TO messages_v1;');
  db.exec(SCHEMA);
  // Version 1 keys were global and unhashed: they cannot be scoped afterwards, so they go.
  db.exec(`INSERT INTO messages (id, status, payload, created_at, queued_at, attempts,
             next_attempt_at, last_error, delivered_at, updated_at)
           SELECT id, status, payload, created_at, created_at, attempts, next_attempt_at,
             last_error, CASE status WHEN 'delivered' THEN updated_at END, updated_at
           FROM messages_v1;
           DROP TABLE messages_v1;`);
  for (const row of db
    .prepare<[], { id: string; payload: string }>('SELECT id, payload FROM messages')
    .all()) {
    const p = readPayload(row.payload);
    if (p) {
      db.prepare('UPDATE messages SET email_domain = ? WHERE id = ?').run(
        emailDomainOf(p.user.email),
        row.id,
      );
    }
  }
}

/**
 * Version 2 to 3: the retry period gets a start of its own (`queued_at`), so that a requeue no
 * longer rewrites `created_at`, the acceptance time the delivered e-mail shows. Until now each
 * message's period started at `created_at`.
 */
function fromVersion2(db: Database.Database): void {
  db.exec(`ALTER TABLE messages ADD COLUMN queued_at INTEGER NOT NULL DEFAULT 0;
           UPDATE messages SET queued_at = created_at;`);
}

/** Brings an outbox written by an earlier version to the current schema, keeping every row. */
function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version >= SCHEMA_VERSION) return;
  const old = db
    .prepare<[], { n: number }>(
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'messages'",
    )
    .get();
  db.transaction(() => {
    if (!old || old.n === 0) db.exec(SCHEMA);
    else if (version < 2) fromVersion1(db);
    else fromVersion2(db);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

/** The open outbox file and the clock: what each part of the outbox works with. */
export interface OutboxDb {
  readonly db: Database.Database;
  readonly now: () => number;
}

/**
 * Opens the outbox file in WAL mode with synchronous=FULL, so that a commit has reached the disk
 * when it returns, and brings it to the current schema.
 */
export function openDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
