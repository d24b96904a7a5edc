/**
 * GET /api/health (liveness: the process answers) and GET /api/ready (readiness: every problem
 * an operator must act on, with the outbox, delivery and message counts behind it).
 */
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import type { DeliveryStatus } from '../delivery/worker';
import type { Outbox } from '../outbox/outbox';
import type { MessageCounts } from '../outbox/queries';

/** /api/ready re-checks the disk at most this often, so polling it cannot turn into fsync load. */
const PROBE_CACHE_MS = 1000;

export const health: RequestHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

export interface ReadinessDeps {
  config: Pick<Config, 'READY_MAX_QUEUE_AGE'>;
  outbox: Outbox;
  delivery: { status(): DeliveryStatus };
  now: () => number;
}

/** 200 when all is well, else 503 with the reasons in `problems` (README: Operations). */
export function readiness({ config, outbox, delivery, now }: ReadinessDeps): RequestHandler {
  let probe = { at: -Infinity, writable: false };
  return async (_req, res) => {
    const t = now();
    if (t - probe.at >= PROBE_CACHE_MS) probe = { at: t, writable: await outbox.probeWritable() };
    const d = delivery.status();
    let messages: MessageCounts | null = null;
    let oldestQueuedAt: number | undefined;
    let unacknowledgedFailed = 0;
    try {
      messages = await outbox.counts();
      oldestQueuedAt = await outbox.oldestQueuedAt();
      unacknowledgedFailed = await outbox.unacknowledgedFailed();
    } catch {
      // Reported below as not ready: an outbox that cannot be read cannot be written either.
    }
    const oldestAgeSeconds =
      oldestQueuedAt === undefined ? null : Math.max(0, Math.round((t - oldestQueuedAt) / 1000));
    // Each reason is something an operator must act on; the list says which.
    const problems: string[] = [];
    if (!probe.writable || messages === null) problems.push('outbox_not_writable');
    if (!d.recording) problems.push('results_not_recorded');
    if (d.working === false) problems.push('delivery_failing');
    if (oldestAgeSeconds !== null && oldestAgeSeconds > config.READY_MAX_QUEUE_AGE)
      problems.push('messages_waiting_too_long');
    if (unacknowledgedFailed > 0) problems.push('failed_messages');
    const ready = problems.length === 0;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      problems,
      outbox: { writable: probe.writable },
      delivery: {
        mode: d.mode,
        working: d.working,
        recording: d.recording,
        lastAttemptAt: d.lastAttemptAt === null ? null : new Date(d.lastAttemptAt).toISOString(),
        lastError: d.lastError,
      },
      messages,
      oldestQueuedAgeSeconds: oldestAgeSeconds,
      unacknowledgedFailed,
    });
  };
}
