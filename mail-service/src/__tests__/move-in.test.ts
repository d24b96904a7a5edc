/**
 * An outbox an earlier start kept in SQLite moves into PostgreSQL on the first start with
 * DATABASE_URL: a message still waiting for its relay is delivered from the database, a delivered
 * one stays counted, the secret, the digest's last sending and the erasure audit come along, and
 * the file holding them is gone. Files of every earlier version move too, with what their version
 * lacked filled in as the service's own upgrade of the file did.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import request from 'supertest';
import { bodyHash, clientHash, scopedKey } from '../outbox/intake';
import { openOutbox } from '../outbox/open';
import { tempDir, validMessage, waitFor } from './helpers';
import { TestSmtp } from './relay';
import { queryOn, testStore } from './stores';
import { spawnServer, startService } from './service-process';

const store = testStore();
const query = queryOn(store);
const dir = tempDir('move-in');
const children: ChildProcess[] = [];
let smtp: TestSmtp | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The SQLite outbox's last schema (version 6), as the service made its file. */
const LAST_SQLITE_SCHEMA = `
  CREATE TABLE mail_messages (
    id              TEXT PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    body_hash       TEXT,
    client_hash     TEXT,
    lane            INTEGER NOT NULL DEFAULT 1,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
    payload         TEXT,
    email_domain    TEXT,
    created_at      INTEGER NOT NULL,
    queued_at       INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    done_rcpts      TEXT,
    delivered_at    INTEGER,
    acknowledged_at INTEGER,
    redacted_at     INTEGER,
    updated_at      INTEGER NOT NULL,
    spam_reasons    TEXT,
    released_at     INTEGER,
    digested_at     INTEGER,
    claimed_by      TEXT,
    lease_until     INTEGER,
    claim           INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX messages_fair ON mail_messages (status, lane, created_at);
  CREATE INDEX messages_client ON mail_messages (client_hash, status);
  CREATE TABLE mail_probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
  CREATE TABLE mail_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE TABLE mail_digest (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    last_sent_at  INTEGER,
    claimed_until INTEGER
  ) STRICT;
  INSERT INTO mail_digest (id) VALUES (1);
  CREATE TABLE mail_erasures (
    id           INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    address_hmac TEXT NOT NULL,
    messages     INTEGER NOT NULL,
    files        INTEGER NOT NULL
  ) STRICT;
  PRAGMA user_version = 6;
`;

const CLIENT = '::ffff:127.0.0.1';
const MINUTE = 60_000;
const SECRET = 'b'.repeat(43);
const ERASED = 'e'.repeat(64);

/** A message as the form sent it, with its subject. */
const withSubject = (subject: string) => {
  const message = validMessage();
  return { ...message, message: { ...message.message, subject } };
};

/**
 * The file an earlier start left in `dataDir`, at the last schema: one message delivered, one
 * queued after an attempt its relay refused, as the service's intake and worker wrote them; the
 * server secret, the last digest's time and one erasure served.
 */
function writeLastOutbox(dataDir: string, now: number) {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(path.join(dataDir, 'outbox.sqlite'));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(LAST_SQLITE_SCHEMA);
  const insert = db.prepare(
    `INSERT INTO mail_messages (id, idempotency_key, body_hash, client_hash, status, payload,
       email_domain, created_at, queued_at, next_attempt_at, updated_at, spam_reasons, lane,
       attempts, done_rcpts, delivered_at, last_error)
     VALUES (?, ?, ?, ?, ?, ?, 'example.co.za', ?, ?, ?, ?, NULL, 1, 1, ?, ?, ?)`,
  );
  const delivered = { id: 'a7c3e1f0-5b2d-4e8a-9c61-2f4b8d0e6a11', at: now - 10 * MINUTE };
  const payload = withSubject('Delivered before the move');
  insert.run(
    delivered.id,
    null,
    bodyHash(payload),
    clientHash(CLIENT),
    'delivered',
    JSON.stringify(payload),
    delivered.at,
    delivered.at,
    delivered.at,
    delivered.at + 1000,
    JSON.stringify(['hello@highveld-digital.co.za']),
    delivered.at + 1000,
    null,
  );
  // Queued with a key, its relay down: the next attempt an hour away.
  const queued = { id: '5e9b2c47-1d8f-4a3e-b6c0-7f2a9e4d1c88', at: now - 5 * MINUTE };
  const waiting = withSubject('Queued before the move');
  insert.run(
    queued.id,
    scopedKey(CLIENT, 'form-1'),
    bodyHash(waiting),
    clientHash(CLIENT),
    'queued',
    JSON.stringify(waiting),
    queued.at,
    queued.at,
    now + 60 * MINUTE,
    queued.at + 200,
    JSON.stringify([]),
    null,
    'ECONNREFUSED',
  );
  db.prepare("INSERT INTO mail_secrets (name, value) VALUES ('server', ?)").run(SECRET);
  db.prepare('UPDATE mail_digest SET last_sent_at = ? WHERE id = 1').run(now - 60 * MINUTE);
  db.prepare(
    'INSERT INTO mail_erasures (at, address_hmac, messages, files) VALUES (?, ?, 2, 0)',
  ).run(now - 30 * MINUTE, ERASED);
  db.close();
  return { delivered, queued };
}

test('the SQLite outbox of an earlier start moves into PostgreSQL, and its queued message arrives', async () => {
  const env = { DATA_DIR: path.join(dir, 'data'), MAILBOX_DIR: path.join(dir, 'mailbox') };
  const now = Date.now();
  const { queued } = writeLastOutbox(env.DATA_DIR, now);
  const file = path.join(env.DATA_DIR, 'outbox.sqlite');
  smtp = await TestSmtp.start();

  // The first start on PostgreSQL: the queued message is delivered from the database.
  const moved = await startService({
    ...env,
    ...store.env,
    SMTP_URL: smtp.url,
    RETRY_BASE_MS: '50',
  });
  children.push(moved.child);
  const relay = smtp;
  const received = await waitFor(() => relay.received.length === 1 && relay.received, {
    timeoutMs: 15_000,
    what: 'the queued message to arrive after the move',
  });
  expect(received[0]?.mail.messageId).toBe(`<${queued.id}@highveld-digital.co.za>`);
  expect(received[0]?.mail.subject).toMatch(/Queued before the move/);
  // The e-mail says when the visitor sent it, not when it moved.
  expect(received[0]?.mail.date?.getTime()).toBe(Math.floor(queued.at / 1000) * 1000);
  expect(moved.logs.join('\n')).toMatch(
    /moved the outbox file .*outbox\.sqlite into PostgreSQL: 2 messages \(1 still to deliver\)/,
  );
  const counts = await waitFor(async () => {
    const r = await request(moved.url).get('/api/ready');
    return r.status === 200 && r.body.messages.delivered === 2 && r.body.messages;
  });
  expect(counts).toEqual({ queued: 0, delivered: 2, failed: 0, spam: 0 });
  // Personal data is not left behind in a copy nothing reads.
  for (const suffix of ['', '-wal', '-shm']) expect(existsSync(`${file}${suffix}`)).toBe(false);
  // The secret (so tokens and release links issued before still hold), the digest's day and the
  // erasure audit came along; the queued message kept its key, its attempt counted.
  expect(await query('SELECT value FROM mail_secrets')).toEqual([{ value: SECRET }]);
  expect(await query('SELECT last_sent_at FROM mail_digest')).toEqual([
    { last_sent_at: String(now - 60 * MINUTE) },
  ]);
  expect(await query('SELECT address_hmac, messages FROM mail_erasures')).toEqual([
    { address_hmac: ERASED, messages: 2 },
  ]);
  expect(
    await query('SELECT idempotency_key, attempts FROM mail_messages WHERE id = $1', [queued.id]),
  ).toEqual([{ idempotency_key: scopedKey(CLIENT, 'form-1'), attempts: 2 }]);

  // A restart finds nothing to move and delivers nothing twice.
  moved.child.kill('SIGTERM');
  await moved.exited;
  const again = await startService({ ...env, ...store.env, SMTP_URL: smtp.url });
  children.push(again.child);
  expect(again.logs.join('\n')).not.toMatch(/moved the outbox file/);
  const r = await request(again.url).get('/api/ready');
  expect(r.body.messages).toEqual({ queued: 0, delivered: 2, failed: 0, spam: 0 });
  expect(smtp.received).toHaveLength(1);
});

describe('files of earlier versions', () => {
  const acceptedAt = Date.UTC(2026, 10, 20, 9, 30);
  const payload = JSON.stringify({
    user: { name: 'Thandi Nkosi', email: 'Thandi@Example.co.za' },
    message: { subject: 'A new website', body: 'Hello' },
  });

  /** The outbox of a file in `dataDir` moved in, on the service's clock a minute after acceptance. */
  async function moveIn(dataDir: string) {
    const opened = openOutbox(
      { ...store.env, DATA_DIR: dataDir },
      { now: () => acceptedAt + MINUTE },
    );
    await opened.outbox.ready();
    expect(existsSync(path.join(dataDir, 'outbox.sqlite'))).toBe(false);
    return {
      outbox: opened.outbox,
      async close() {
        await opened.outbox.close();
        await opened.postgres.close();
      },
    };
  }

  test('version 2, before the retry period had a column of its own: its period starts at acceptance; spam gets the one reason it had', async () => {
    const dataDir = tempDir('v2');
    const db = new DatabaseSync(path.join(dataDir, 'outbox.sqlite'));
    db.exec(`CREATE TABLE messages (
        id TEXT PRIMARY KEY, idempotency_key TEXT UNIQUE, body_hash TEXT, client_hash TEXT,
        lane INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
        payload TEXT, email_domain TEXT, created_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL, last_error TEXT,
        done_rcpts TEXT, delivered_at INTEGER, acknowledged_at INTEGER, redacted_at INTEGER,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX messages_fair ON messages (status, lane, created_at);
      CREATE INDEX messages_client ON messages (client_hash, status);
      CREATE TABLE probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;
      PRAGMA user_version = 2;`);
    db.prepare(
      `INSERT INTO messages (id, status, payload, email_domain, created_at, attempts,
         next_attempt_at, updated_at) VALUES (?, 'queued', ?, 'example.co.za', ?, 3, ?, ?)`,
    ).run('m-1', payload, acceptedAt, acceptedAt, acceptedAt);
    db.prepare(
      `INSERT INTO messages (id, status, payload, email_domain, created_at, lane,
         next_attempt_at, updated_at) VALUES (?, 'spam', ?, 'example.co.za', ?, 0, ?, ?)`,
    ).run('m-2', payload, acceptedAt, acceptedAt, acceptedAt);
    db.close();

    const { outbox, close } = await moveIn(dataDir);
    try {
      expect(await outbox.due(10)).toEqual([
        expect.objectContaining({
          id: 'm-1',
          createdAt: acceptedAt,
          queuedAt: acceptedAt,
          attempts: 3,
        }),
      ]);
      expect(await outbox.oldestQueuedAt()).toBe(acceptedAt);
      expect(await outbox.list({ status: 'spam' })).toEqual([
        expect.objectContaining({ id: 'm-2', spamReasons: ['honeypot field filled'] }),
      ]);
    } finally {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('version 1, the first: its global, unhashed keys are dropped; the domain and the delivery time are filled in', async () => {
    const dataDir = tempDir('v1');
    const db = new DatabaseSync(path.join(dataDir, 'outbox.sqlite'));
    db.exec(`CREATE TABLE messages (
        id              TEXT PRIMARY KEY,
        idempotency_key TEXT UNIQUE,
        status          TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
        payload         TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error      TEXT,
        updated_at      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX messages_due ON messages (status, next_attempt_at);
      CREATE TABLE probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL) STRICT;`);
    const insert = db.prepare(
      `INSERT INTO messages (id, idempotency_key, status, payload, created_at, attempts,
         next_attempt_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('d-1', 'form-1', 'delivered', payload, acceptedAt, 1, acceptedAt, acceptedAt + 900);
    insert.run('q-1', 'form-2', 'queued', payload, acceptedAt, 2, acceptedAt, acceptedAt + 500);
    db.close();

    const { outbox, close } = await moveIn(dataDir);
    try {
      const [delivered] = await outbox.list({ status: 'delivered' });
      expect(delivered).toMatchObject({
        id: 'd-1',
        deliveredAt: acceptedAt + 900,
        emailDomain: 'example.co.za',
        spamReasons: [],
      });
      expect(await outbox.due(10)).toEqual([
        expect.objectContaining({ id: 'q-1', queuedAt: acceptedAt, attempts: 2 }),
      ]);
      expect(await query('SELECT idempotency_key FROM mail_messages')).toEqual([
        { idempotency_key: null },
        { idempotency_key: null },
      ]);
    } finally {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test('a Node without node:sqlite runs the service, but stops a start that has a file to move, keeping it', async () => {
  const env = {
    ...store.env,
    DATA_DIR: path.join(dir, 'old-node-data'),
    MAILBOX_DIR: path.join(dir, 'old-node-mailbox'),
    NODE_OPTIONS: '--no-experimental-sqlite',
    MAIL_SERVICE_PORT: '0',
  };
  writeLastOutbox(env.DATA_DIR, Date.now());
  const file = path.join(env.DATA_DIR, 'outbox.sqlite');
  const child = spawnServer(env);
  children.push(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  expect(out).toMatch(/the outbox file \S+outbox\.sqlite of an earlier start could not be moved/);
  expect(out).toContain("needs Node's built-in SQLite");
  expect(out).toContain('the Node.js 24 LTS the project pins');
  expect(out).not.toMatch(/listening/);
  expect(existsSync(file)).toBe(true);
  expect(await query('SELECT COUNT(*)::integer AS n FROM mail_messages')).toEqual([{ n: 0 }]);

  rmSync(env.DATA_DIR, { recursive: true, force: true });
  const service = await startService(env);
  children.push(service.child);
  await request(service.url).get('/api/ready').expect(200);
  service.child.kill('SIGTERM');
  expect(await service.exited).toEqual({ code: 0, signal: null });
});
