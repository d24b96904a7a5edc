/**
 * The outbox's SQLite file: its settings, its tables (the same names and columns as PostgreSQL's,
 * mail-service/migrations/), the migration from earlier versions, and the store the outbox runs
 * on (see sql.ts); also how a stored payload and its spam reasons are read back, in either store.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ContactMessage } from '@site/contracts/contact';
import type { Store } from './sql';
import { openSqlite, pragmaValue, setPragma, sqliteSql, type SqliteDb } from './sqlite';
import { privateDir } from '@site/serving/private-dir';

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

const SCHEMA_VERSION = 6;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS mail_messages (
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
    -- The spam signals it showed: a JSON array of reasons; NULL for a message that showed none.
    spam_reasons    TEXT,
    -- When an operator released it from spam to the queue.
    released_at     INTEGER,
    -- When a held message was listed in a digest to sales; retention deletes none before.
    digested_at     INTEGER,
    -- The delivery claim: who, until when, and its fencing token (see outbox.ts).
    claimed_by      TEXT,
    lease_until     INTEGER,
    claim           INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX IF NOT EXISTS messages_fair ON mail_messages (status, lane, created_at);
  CREATE INDEX IF NOT EXISTS messages_client ON mail_messages (client_hash, status);
  CREATE TABLE IF NOT EXISTS mail_probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
  -- The server secret when FORM_TOKEN_SECRET is unset: made once, kept across restarts.
  CREATE TABLE IF NOT EXISTS mail_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  -- The digest of held messages: when the last one went out, and who is sending one now.
  CREATE TABLE IF NOT EXISTS mail_digest (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    last_sent_at  INTEGER,
    claimed_until INTEGER
  ) STRICT;
  INSERT INTO mail_digest (id) VALUES (1) ON CONFLICT (id) DO NOTHING;
  -- One row per erasure request served: an HMAC of the address (never the address), the count.
  CREATE TABLE IF NOT EXISTS mail_erasures (
    id           INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    address_hmac TEXT NOT NULL,
    messages     INTEGER NOT NULL,
    files        INTEGER NOT NULL
  ) STRICT;
`;

/**
 * Each step brings the file from one version to the next; version 1 is made again whole. Until
 * version 6 the tables had no `mail_` prefix.
 */
const STEPS: Record<number, string> = {
  // The retry period gets a start of its own, so that a requeue no longer rewrites `created_at`.
  2: `ALTER TABLE messages ADD COLUMN queued_at INTEGER NOT NULL DEFAULT 0;
      UPDATE messages SET queued_at = created_at;`,
  // Spam keeps its reasons and a release time (the secret and audit tables come with SCHEMA).
  3: `ALTER TABLE messages ADD COLUMN spam_reasons TEXT;
      ALTER TABLE messages ADD COLUMN released_at INTEGER;`,
  // Held messages are listed in a daily digest to sales.
  4: 'ALTER TABLE messages ADD COLUMN digested_at INTEGER;',
  // The tables take PostgreSQL's names, so one text of each statement serves both stores; a
  // claim has a lease and a fencing token, as in PostgreSQL.
  5: `ALTER TABLE messages RENAME TO mail_messages;
      ALTER TABLE mail_messages ADD COLUMN claimed_by TEXT;
      ALTER TABLE mail_messages ADD COLUMN lease_until INTEGER;
      ALTER TABLE mail_messages ADD COLUMN claim INTEGER NOT NULL DEFAULT 0;`,
};

/** Version 1 to the current schema: its keys were global and unhashed, so they go. */
function fromVersion1(db: SqliteDb): void {
  db.exec(`DROP INDEX IF EXISTS messages_due; ALTER TABLE messages RENAME TO messages_v1;
           DROP TABLE IF EXISTS probe;
           ${SCHEMA}
           INSERT INTO mail_messages (id, status, payload, created_at, queued_at, attempts,
             next_attempt_at, last_error, delivered_at, updated_at)
           SELECT id, status, payload, created_at, created_at, attempts, next_attempt_at,
             last_error, CASE status WHEN 'delivered' THEN updated_at END, updated_at
           FROM messages_v1;
           DROP TABLE messages_v1;`);
  const setDomain = db.prepare('UPDATE mail_messages SET email_domain = ? WHERE id = ?');
  for (const row of db.prepare('SELECT id, payload FROM mail_messages').all()) {
    const p = readPayload(row.payload as string | null);
    if (p) setDomain.run(emailDomainOf(p.user.email), row.id as string);
  }
}

const hasTable = (db: SqliteDb, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
  undefined;

/** Brings an outbox written by an earlier version to the current schema, keeping every row. */
function migrate(db: SqliteDb): void {
  const version = Number(pragmaValue(db, 'user_version'));
  if (version >= SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    if (!hasTable(db, 'messages') && !hasTable(db, 'mail_messages')) db.exec(SCHEMA);
    else if (version < 2) fromVersion1(db);
    else {
      for (let v = version; v < SCHEMA_VERSION; v++) db.exec(STEPS[v] ?? '');
      for (const table of ['probe', 'secrets', 'erasures', 'digest']) {
        if (hasTable(db, table)) db.exec(`ALTER TABLE ${table} RENAME TO mail_${table}`);
      }
      db.exec(SCHEMA);
    }
    // Spam stored before reasons were kept had one reason: the honeypot.
    db.exec(`UPDATE mail_messages SET spam_reasons = '["honeypot field filled"]'
             WHERE status = 'spam' AND spam_reasons IS NULL`);
    setPragma(db, `user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

const CHECKPOINT_TRIES = 50;

/**
 * The outbox file in `dir` (made if needed): WAL mode with synchronous=FULL, so that a commit has
 * reached the disk when it returns, and brought to the current schema. Deletes overwrite the freed
 * pages with zeros (secure_delete), so that a deleted message is not left in the file.
 */
export function sqliteStore(dir: string): Store & { file: string; db: SqliteDb } {
  privateDir(dir);
  const file = path.join(dir, 'outbox.sqlite');
  const db = openSqlite(file);
  setPragma(db, 'journal_mode = WAL');
  setPragma(db, 'synchronous = FULL');
  setPragma(db, 'busy_timeout = 5000');
  setPragma(db, 'secure_delete = ON');
  migrate(db);
  const sql = sqliteSql(db);
  /**
   * Copies the WAL into the file and truncates it to nothing. Another process's connection can
   * hold it up for a moment (a read in progress): tried again until it completes.
   */
  const truncateWal = async () => {
    for (let i = 0; i < CHECKPOINT_TRIES; i++) {
      const [result] = await sql.all<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)');
      if (result?.busy === 0) return;
      await sleep(100);
    }
    throw new Error(
      'the WAL could not be truncated (the outbox stayed busy for 5 s): run the erase again',
    );
  };
  return {
    kind: 'sqlite',
    file,
    db,
    // Only this process delivers from the file.
    shared: false,
    sql,
    clock: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
    greatest: 'MAX',
    skipLocked: '',
    ready: Promise.resolve(),
    announce: async () => undefined,
    // Only this process writes here, and it wakes its own worker.
    onAnnounced: () => undefined,
    // The deleted rows are still in the WAL until it is copied back and truncated, and in pages
    // of the file that VACUUM rewrites; VACUUM itself goes through the WAL, hence twice.
    async scrub() {
      await truncateWal();
      await sql.run('VACUUM');
      await truncateWal();
    },
    close: async () => db.close(),
  };
}
