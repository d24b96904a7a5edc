import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { accept, ready, startPerTest, waitFor, type Harness } from './helpers';

/**
 * A requeue gives a failed message a fresh retry period and nothing else: the e-mail still says
 * when the visitor sent it.
 */

const start = startPerTest();
const DAY = 86_400_000;

/** `npm run outbox -w mail-service -- <args>`, exactly as an operator runs it, on `h`'s outbox. */
const outboxCommand = (args: string[], h: Harness) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: path.join(__dirname, '..', '..'),
    env: {
      ...process.env,
      DATABASE_URL: h.config.DATABASE_URL,
      DATA_DIR: h.config.DATA_DIR,
      LOG_LEVEL: 'silent',
    },
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
    expect(outboxCommand(['requeue', id], h)).toMatch(/^1 message\(s\) queued again/);
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

    const listed = JSON.parse(outboxCommand(['show', id], h)) as Record<string, unknown>;
    expect(listed).toMatchObject({
      status: 'delivered',
      created: sent.toISOString(),
      requeued: new Date(requeued!.queuedAt).toISOString(),
    });
  });
});
