import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createMailboxCourier } from '../delivery/mailbox-courier';
import type { NewMessage } from '../outbox/intake';
import { Outbox } from '../outbox/outbox';
import { tempDir, validMessage } from './helpers';

/** A valid message from one client, as the API hands it to the outbox. */
const message = (extra: Partial<NewMessage> = {}): NewMessage => ({
  payload: validMessage(),
  spamReasons: [],
  held: false,
  client: '203.0.113.1',
  ...extra,
});

describe('the outbox', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('outbox');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('messages stored together (one commit) are all there after reopening', async () => {
    const outbox = Outbox.open(dir);
    const results = await Promise.all(Array.from({ length: 30 }, () => outbox.enqueue(message())));
    const ids = results.map((r) => (r.outcome === 'stored' ? r.messageId : ''));
    expect(new Set(ids).size).toBe(30);
    await outbox.close();

    const reopened = Outbox.open(dir);
    expect(await reopened.counts()).toEqual({ queued: 30, delivered: 0, failed: 0, spam: 0 });
    const due = await reopened.due(100);
    expect(due.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(due[0]?.payload).toEqual(validMessage());
    await reopened.close();
  });

  test('an idempotency key outlives a restart', async () => {
    const outbox = Outbox.open(dir);
    const first = await outbox.enqueue(message({ idempotencyKey: 'k1' }));
    await outbox.close();
    const reopened = Outbox.open(dir);
    const again = await reopened.enqueue(message({ idempotencyKey: 'k1' }));
    expect(first.outcome).toBe('stored');
    expect(again).toEqual({
      outcome: 'replay',
      messageId: (first as { messageId: string }).messageId,
    });
    expect((await reopened.counts()).queued).toBe(1);
    await reopened.close();
  });

  test('closing commits what is pending; a closed outbox refuses new messages', async () => {
    const outbox = Outbox.open(dir);
    const pending = outbox.enqueue(
      message({ spamReasons: ['honeypot field filled'], held: true, client: 'x' }),
    );
    const closed = outbox.close();
    await expect(outbox.enqueue(message())).rejects.toThrow(/closed/);
    await expect(pending).resolves.toEqual({ outcome: 'stored', messageId: expect.any(String) });
    await closed;
    const reopened = Outbox.open(dir);
    expect(await reopened.counts()).toEqual({ queued: 0, delivered: 0, failed: 0, spam: 1 });
    await reopened.close();
  });

  test('keeps its folder and the mailbox folder to their owner alone, even folders made open before', async () => {
    const outboxDir = path.join(dir, 'data');
    const mailboxDir = path.join(dir, 'mailbox');
    mkdirSync(outboxDir, { mode: 0o755 });
    chmodSync(outboxDir, 0o755);
    const outbox = Outbox.open(outboxDir);
    createMailboxCourier(mailboxDir).close();
    expect(statSync(outboxDir).mode & 0o777).toBe(0o700);
    expect(statSync(mailboxDir).mode & 0o777).toBe(0o700);
    await outbox.close();
  });
});
