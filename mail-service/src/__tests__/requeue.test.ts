import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Outbox } from '../outbox/outbox';
import { accept, ready, startPerTest, tempDir, waitFor } from './helpers';

/**
 * A requeue gives a failed message a fresh retry period and nothing else: the e-mail still says
 * when the visitor sent it.
 */

const start = startPerTest();
const DAY = 86_400_000;

/** `npm run outbox -w mail-service -- <args>`, exactly as an operator runs it. */
const outboxCommand = (args: string[], dataDir: string) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: path.join(__dirname, '..', '..'),
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });

describe('requeue', () => {
  test('the delivered e-mail keeps the acceptance time as its Date and "Sent:"; the retry period starts again', async () => {
    const smtp = await start.relay();
    // Refused for good at first; after the requeue, one refusal for now, then taken.
    smtp.reply = (attempt) =>
      attempt === 1
        ? { code: 550, message: '5.7.1 Message rejected' }
        : attempt === 2
          ? { code: 451, message: '4.3.0 Try again later' }
          : undefined;
    // The message is accepted two days ago by the service's clock; retries last one hour.
    let offset = -2 * DAY;
    const h = start.harness(
      { SMTP_URL: smtp.url, QUEUE_LIFETIME: '3600', READY_MAX_QUEUE_AGE: '900' },
      { pollMs: 50, now: () => Date.now() + offset },
    );
    const id = await accept(h);
    await waitFor(async () => (await h.outbox.statusOf(id))?.status === 'failed', {
      what: 'the failure',
    });
    const acceptedAt = (await h.outbox.list({ ids: [id] }))[0]!.createdAt;

    // Two days later the operator fixes the cause and requeues it.
    offset = 0;
    expect(outboxCommand(['requeue', id], h.config.DATA_DIR)).toMatch(
      /^1 message\(s\) queued again/,
    );
    const [requeued] = await h.outbox.list({ ids: [id] });
    expect(requeued).toMatchObject({ status: 'queued', attempts: 0, createdAt: acceptedAt });
    expect(requeued!.queuedAt).toBeGreaterThanOrEqual(acceptedAt + 2 * DAY - 60_000);
    // Waiting is counted from the requeue: readiness is not red for a message requeued just now.
    expect((await ready(h)).problems).not.toContain('messages_waiting_too_long');

    h.worker.kick();
    await waitFor(async () => (await h.outbox.statusOf(id))?.status === 'delivered', {
      what: 'the delivery',
    });
    // The 451 after the requeue was retried, not failed as two days past QUEUE_LIFETIME.
    expect(smtp.dataAttempts).toBe(3);
    const [{ mail }] = smtp.received as [(typeof smtp.received)[number]];
    const sent = new Date(acceptedAt);
    expect(mail.date?.getTime()).toBe(Math.floor(acceptedAt / 1000) * 1000);
    expect(mail.text).toContain(`Sent:    ${sent.toISOString()}`);
    expect(mail.html).toContain(
      `<th align="left" style="padding:2px 12px 2px 0">Sent</th><td>${sent.toISOString()}</td>`,
    );

    const listed = JSON.parse(outboxCommand(['show', id], h.config.DATA_DIR)) as Record<
      string,
      unknown
    >;
    expect(listed).toMatchObject({
      status: 'delivered',
      created: sent.toISOString(),
      requeued: new Date(requeued!.queuedAt).toISOString(),
    });
  });

  test('an outbox written before the retry period had a column of its own keeps its messages; their period starts at acceptance', async () => {
    const dir = tempDir('v2');
    const acceptedAt = Date.UTC(2026, 10, 20, 9, 30);
    const db = new DatabaseSync(path.join(dir, 'outbox.sqlite'));
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
    const payload = JSON.stringify({
      user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za' },
      message: { subject: 'A new website', body: 'Hello' },
    });
    db.prepare(
      `INSERT INTO messages (id, status, payload, email_domain, created_at, attempts,
         next_attempt_at, updated_at) VALUES (?, 'queued', ?, 'example.co.za', ?, 3, ?, ?)`,
    ).run('m-1', payload, acceptedAt, acceptedAt, acceptedAt);
    db.prepare(
      `INSERT INTO messages (id, status, payload, email_domain, created_at, lane,
         next_attempt_at, updated_at) VALUES (?, 'spam', ?, 'example.co.za', ?, 0, ?, ?)`,
    ).run('m-2', payload, acceptedAt, acceptedAt, acceptedAt);
    db.close();

    const outbox = Outbox.open(dir, () => acceptedAt + 60_000);
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
      // Spam stored before reasons were kept had one reason: the honeypot.
      expect(await outbox.list({ status: 'spam' })).toEqual([
        expect.objectContaining({ id: 'm-2', spamReasons: ['honeypot field filled'] }),
      ]);
    } finally {
      await outbox.close();
    }
    const reopened = new DatabaseSync(path.join(dir, 'outbox.sqlite'), { readOnly: true });
    expect(reopened.prepare('PRAGMA user_version').get()).toEqual({ user_version: 6 });
    reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
