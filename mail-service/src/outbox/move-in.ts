/**
 * An outbox an earlier start kept in SQLite (`<DATA_DIR>/outbox.sqlite`, as the service kept it
 * before PostgreSQL was its one store), moved into PostgreSQL when the service first starts on a
 * database: every message as it stood (a queued one keeps its attempts and its next try), the
 * form-token secret, the held-message digest's last sending and the erasure audit, in one
 * transaction. The file is then deleted with its WAL: it holds personal data, which must not
 * outlive its retention in a copy nothing reads. A move that fails leaves the file where it was
 * and stops the start with the reason; a message moved twice is kept once.
 *
 * The file is only read, as whichever version of the service wrote it (its `user_version`, 1 to
 * 6): what that version's tables lack is filled in as the service's own upgrade of the file did.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Pool } from 'pg';
import { transaction } from '@site/postgres';
import { emailDomainOf, readPayload } from './stored';

/** The columns of `mail_messages` a message moves with (its claim is this database's business). */
const MESSAGE_COLUMNS = [
  'id',
  'idempotency_key',
  'body_hash',
  'client_hash',
  'lane',
  'status',
  'payload',
  'email_domain',
  'created_at',
  'queued_at',
  'attempts',
  'next_attempt_at',
  'last_error',
  'done_rcpts',
  'delivered_at',
  'acknowledged_at',
  'redacted_at',
  'updated_at',
  'spam_reasons',
  'released_at',
  'digested_at',
] as const;

/**
 * What version 1 kept of a message. Its idempotency keys were global and unhashed, so they are not
 * moved (nor were they kept by the upgrade to version 2).
 */
const VERSION_1_COLUMNS = [
  'id',
  'status',
  'payload',
  'created_at',
  'attempts',
  'next_attempt_at',
  'last_error',
  'updated_at',
];

type Row = Record<string, unknown>;

/**
 * A message's values in MESSAGE_COLUMNS' order: those its version stored, and for the columns
 * added since, what their upgrades gave: a lane of its own, a retry period that starts at the
 * acceptance, the sender's domain read from the payload, a delivery time from the last update
 * (version 1), and for spam stored before reasons were kept, the one reason it had.
 */
function messageValues(stored: Row, version: number): unknown[] {
  const row =
    version < 2
      ? Object.fromEntries(VERSION_1_COLUMNS.map((column) => [column, stored[column] ?? null]))
      : stored;
  const email = readPayload((row.payload as string | null) ?? null)?.user.email;
  const added: Row = {
    lane: 1,
    attempts: 0,
    queued_at: row.created_at,
    email_domain: email === undefined ? null : emailDomainOf(email),
    delivered_at: row.status === 'delivered' ? row.updated_at : null,
  };
  return MESSAGE_COLUMNS.map((column) => {
    const value = column in row ? row[column] : added[column];
    if (column === 'spam_reasons' && row.status === 'spam') {
      return value ?? '["honeypot field filled"]';
    }
    return value ?? null;
  });
}

interface StoredOutbox {
  messages: Row[];
  values: unknown[][];
  secrets: Row[];
  erasures: Row[];
  lastDigestAt: number | null;
}

/**
 * Node's built-in SQLite, loaded only when there is a file to move: the service itself runs on any
 * Node the project supports.
 */
async function openReadOnly(file: string): Promise<DatabaseSync> {
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await import('node:sqlite');
  } catch {
    throw new Error(
      `reading it needs Node's built-in SQLite (node:sqlite, Node.js 22.13 and newer), which ` +
        `Node.js ${process.versions.node} does not have: start the service once on the ` +
        'Node.js 24 LTS the project pins (.nvmrc)',
    );
  }
  return new sqlite.DatabaseSync(file, { readOnly: true });
}

/** Everything the file holds that moves, under whichever table names its version used. */
function readOutbox(db: DatabaseSync): StoredOutbox {
  const all = (text: string) =>
    db
      .prepare(text)
      .all()
      .map((row) => ({ ...row }) as Row);
  const version = Number(Object.values(db.prepare('PRAGMA user_version').get() ?? {})[0] ?? 0);
  const tables = new Set(
    all("SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => String(row.name)),
  );
  // Until version 6 the tables had no `mail_` prefix.
  const table = (name: string) =>
    tables.has(`mail_${name}`) ? `mail_${name}` : tables.has(name) ? name : undefined;
  const from = (name: string, query: (table: string) => string) => {
    const found = table(name);
    return found === undefined ? [] : all(query(found));
  };
  const messages = from('messages', (t) => `SELECT * FROM ${t}`);
  const [digest] = from('digest', (t) => `SELECT last_sent_at FROM ${t} WHERE id = 1`);
  return {
    messages,
    values: messages.map((row) => messageValues(row, version)),
    // The secret and the erasure audit came with version 3, the digest with version 4.
    secrets: from('secrets', (t) => `SELECT name, value FROM ${t}`),
    erasures: from(
      'erasures',
      (t) => `SELECT at, address_hmac, messages, files FROM ${t} ORDER BY id`,
    ),
    lastDigestAt: (digest?.last_sent_at as number | null | undefined) ?? null,
  };
}

export interface MovedOutbox {
  file: string;
  messages: number;
  queued: number;
}

/** A move that failed: the file is kept, and the start stops with this message. */
export class MoveInError extends Error {
  override name = 'MoveInError';
}

export async function moveInSqlite(pool: Pool, dataDir: string): Promise<MovedOutbox | undefined> {
  const file = path.join(dataDir, 'outbox.sqlite');
  if (!existsSync(file)) return undefined;
  try {
    return await moveIn(pool, file);
  } catch (error) {
    throw new MoveInError(
      `the outbox file ${file} of an earlier start could not be moved into PostgreSQL, and is ` +
        `kept: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function moveIn(pool: Pool, file: string): Promise<MovedOutbox> {
  const db = await openReadOnly(file);
  let stored: StoredOutbox;
  try {
    stored = readOutbox(db);
  } finally {
    db.close();
  }
  const placeholders = MESSAGE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
  await transaction(pool, async (client) => {
    for (const values of stored.values) {
      await client.query(
        `INSERT INTO mail_messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${placeholders})
         ON CONFLICT DO NOTHING`,
        values,
      );
    }
    for (const { name, value } of stored.secrets) {
      await client.query(
        'INSERT INTO mail_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
        [name, value],
      );
    }
    for (const e of stored.erasures) {
      await client.query(
        'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES ($1, $2, $3, $4)',
        [e.at, e.address_hmac, e.messages, e.files],
      );
    }
    if (stored.lastDigestAt) {
      await client.query(
        `UPDATE mail_digest SET last_sent_at = GREATEST(COALESCE(last_sent_at, 0), $1)
          WHERE id = 1`,
        [stored.lastDigestAt],
      );
    }
  });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  return {
    file,
    messages: stored.messages.length,
    queued: stored.messages.filter((m) => m.status === 'queued').length,
  };
}
