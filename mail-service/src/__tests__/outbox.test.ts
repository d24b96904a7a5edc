import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createMailboxCourier } from '../delivery/mailbox-courier';
import type { NewMessage } from '../outbox/intake';
import { openOutbox } from '../outbox/open';
import { tempDir, validMessage } from './helpers';
import { testStore } from './stores';

/** A valid message from one client, as the API hands it to the outbox. */
const message = (extra: Partial<NewMessage> = {}): NewMessage => ({
  payload: validMessage(),
  spamReasons: [],
  held: false,
  client: '203.0.113.1',
  ...extra,
});

describe('the outbox', () => {
  const store = testStore();
  let dir: string;
  beforeEach(() => {
    dir = tempDir('outbox');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The outbox as a process opens it (its own pool); `close` closes both. */
  const open = () => {
    const { outbox, postgres } = openOutbox({ ...store.env, DATA_DIR: dir });
    return Object.assign(outbox, {
      async closeAll() {
        await outbox.close();
        await postgres.close();
      },
    });
  };

  test('messages stored together (one commit) are all there after reopening', async () => {
    const outbox = open();
    const results = await Promise.all(Array.from({ length: 30 }, () => outbox.enqueue(message())));
    const ids = results.map((r) => (r.outcome === 'stored' ? r.messageId : ''));
    expect(new Set(ids).size).toBe(30);
    await outbox.closeAll();

    const reopened = open();
    expect(await reopened.counts()).toEqual({ queued: 30, delivered: 0, failed: 0, spam: 0 });
    const due = await reopened.due(100);
    expect(due.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(due[0]?.payload).toEqual(validMessage());
    await reopened.closeAll();
  });

  test('an idempotency key outlives a restart', async () => {
    const outbox = open();
    const first = await outbox.enqueue(message({ idempotencyKey: 'k1' }));
    await outbox.closeAll();
    const reopened = open();
    const again = await reopened.enqueue(message({ idempotencyKey: 'k1' }));
    expect(first.outcome).toBe('stored');
    expect(again).toEqual({
      outcome: 'replay',
      messageId: (first as { messageId: string }).messageId,
    });
    expect((await reopened.counts()).queued).toBe(1);
    await reopened.closeAll();
  });

  test('closing commits what is pending; a closed outbox refuses new messages', async () => {
    const outbox = open();
    const pending = outbox.enqueue(
      message({ spamReasons: ['honeypot field filled'], held: true, client: 'x' }),
    );
    const closed = outbox.closeAll();
    await expect(outbox.enqueue(message())).rejects.toThrow(/closed/);
    await expect(pending).resolves.toEqual({ outcome: 'stored', messageId: expect.any(String) });
    await closed;
    const reopened = open();
    expect(await reopened.counts()).toEqual({ queued: 0, delivered: 0, failed: 0, spam: 1 });
    await reopened.closeAll();
  });

  test('a closing outbox gives up its claims: another instance sends them at once', async () => {
    const first = open();
    const { messageId } = (await first.enqueue(message())) as { messageId: string };
    expect((await first.due(10)).map((m) => m.id)).toEqual([messageId]);
    const other = open();
    // Claimed: not due for anyone else until the claim's lease ends.
    expect(await other.due(10)).toEqual([]);
    await first.closeAll();
    expect((await other.due(10)).map((m) => m.id)).toEqual([messageId]);
    await other.closeAll();
  });

  test('a claim let go (it could not be checked before a send) lapses, and another instance takes the message', async () => {
    const leaseMs = 400;
    const first = openOutbox({ ...store.env, DATA_DIR: dir }, { leaseMs });
    const other = openOutbox({ ...store.env, DATA_DIR: dir }, { leaseMs });
    try {
      const kept = (await first.outbox.enqueue(message())) as { messageId: string };
      const letGo = (await first.outbox.enqueue(message({ client: '203.0.113.2' }))) as {
        messageId: string;
      };
      expect((await first.outbox.due(10)).map((m) => m.id).sort()).toEqual(
        [kept.messageId, letGo.messageId].sort(),
      );
      first.outbox.letGo(letGo.messageId);
      // Three leases on: the claim still renewed holds, the one let go has lapsed.
      await new Promise((resolve) => setTimeout(resolve, leaseMs * 3));
      expect((await other.outbox.due(10)).map((m) => m.id)).toEqual([letGo.messageId]);
    } finally {
      await first.outbox.close();
      await other.outbox.close();
      await first.postgres.close();
      await other.postgres.close();
    }
  });

  test('keeps the mailbox folder to its owner alone, even one made open before', () => {
    const mailboxDir = path.join(dir, 'mailbox');
    mkdirSync(mailboxDir, { mode: 0o755 });
    chmodSync(mailboxDir, 0o755);
    createMailboxCourier(mailboxDir).close();
    expect(statSync(mailboxDir).mode & 0o777).toBe(0o700);
  });
});
