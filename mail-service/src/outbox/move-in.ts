/**
 * An outbox an earlier single instance kept in SQLite (`<DATA_DIR>/outbox.sqlite`), moved into
 * PostgreSQL when the service first starts on a database: every message as it stood (a queued one
 * keeps its attempts and its next try), the form-token secret, the held-message digest's last
 * sending and the erasure audit, in one transaction. The file is then deleted with its WAL: it
 * holds personal data, which must not outlive its retention in a copy nothing reads. A move that
 * fails leaves the file where it was and stops the start with the reason; a message moved twice
 * is kept once.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { transaction } from '@site/postgres';
import { sqliteStore } from './schema';

/** The columns of `mail_messages` both stores have (the SQLite schema follows PostgreSQL's). */
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

export interface MovedOutbox {
  file: string;
  messages: number;
  queued: number;
}

export async function moveInSqlite(pool: Pool, dataDir: string): Promise<MovedOutbox | undefined> {
  const file = path.join(dataDir, 'outbox.sqlite');
  if (!existsSync(file)) return undefined;
  // Opened as the service opened it, which first brings an older file to the current schema.
  const store = sqliteStore(dataDir);
  let moved: MovedOutbox;
  try {
    const all = <R>(text: string) => store.sql.all<R>(text);
    const messages = await all<Record<string, unknown>>(
      `SELECT ${MESSAGE_COLUMNS.join(', ')} FROM mail_messages`,
    );
    const secrets = await all<{ name: string; value: string }>(
      'SELECT name, value FROM mail_secrets',
    );
    const erasures = await all<Record<string, unknown>>(
      'SELECT at, address_hmac, messages, files FROM mail_erasures ORDER BY id',
    );
    const [digest] = await all<{ last_sent_at: number | null }>(
      'SELECT last_sent_at FROM mail_digest WHERE id = 1',
    );
    const placeholders = MESSAGE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
    await transaction(pool, async (client) => {
      for (const row of messages) {
        await client.query(
          `INSERT INTO mail_messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${placeholders})
           ON CONFLICT DO NOTHING`,
          MESSAGE_COLUMNS.map((column) => row[column] ?? null),
        );
      }
      for (const { name, value } of secrets) {
        await client.query(
          'INSERT INTO mail_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
          [name, value],
        );
      }
      for (const e of erasures) {
        await client.query(
          'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES ($1, $2, $3, $4)',
          [e.at, e.address_hmac, e.messages, e.files],
        );
      }
      if (digest?.last_sent_at) {
        await client.query(
          `UPDATE mail_digest SET last_sent_at = GREATEST(COALESCE(last_sent_at, 0), $1)
            WHERE id = 1`,
          [digest.last_sent_at],
        );
      }
    });
    moved = {
      file,
      messages: messages.length,
      queued: messages.filter((m) => m.status === 'queued').length,
    };
  } finally {
    await store.close();
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  return moved;
}
