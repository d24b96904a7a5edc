import { rmSync } from 'node:fs';
import { Outbox } from '../outbox';
import { tempDir, validMessage } from './helpers';

describe('the outbox', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('outbox');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('messages stored together (one commit) are all there after reopening', async () => {
    const outbox = Outbox.open(dir);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => outbox.enqueue({ payload: validMessage(), spam: false })),
    );
    expect(new Set(results.map((r) => r.messageId)).size).toBe(30);
    outbox.close();

    const reopened = Outbox.open(dir);
    expect(reopened.counts()).toEqual({ queued: 30, delivered: 0, failed: 0, spam: 0 });
    const due = reopened.due(100);
    expect(due.map((m) => m.id).sort()).toEqual(results.map((r) => r.messageId).sort());
    expect(due[0]?.payload).toEqual(validMessage());
    reopened.close();
  });

  test('an idempotency key outlives a restart', async () => {
    const outbox = Outbox.open(dir);
    const first = await outbox.enqueue({
      payload: validMessage(),
      spam: false,
      idempotencyKey: 'k1',
    });
    outbox.close();
    const reopened = Outbox.open(dir);
    const again = await reopened.enqueue({
      payload: validMessage(),
      spam: false,
      idempotencyKey: 'k1',
    });
    expect(again).toEqual({ messageId: first.messageId, replay: true });
    expect(reopened.counts().queued).toBe(1);
    reopened.close();
  });

  test('closing commits what is pending; a closed outbox refuses new messages', async () => {
    const outbox = Outbox.open(dir);
    const pending = outbox.enqueue({ payload: validMessage(), spam: true });
    outbox.close();
    await expect(pending).resolves.toEqual({ messageId: expect.any(String), replay: false });
    await expect(outbox.enqueue({ payload: validMessage(), spam: false })).rejects.toThrow(
      /closed/,
    );
    const reopened = Outbox.open(dir);
    expect(reopened.counts()).toEqual({ queued: 0, delivered: 0, failed: 0, spam: 1 });
    reopened.close();
  });
});
