import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LOG_BUFFER_BYTES, droppedSinceLastCall } from '@site/serving/request-log';
import type { DeliveryObserver } from './delivery/attempt';
import type { DeliveryStatus } from './delivery/worker';
import type { Outbox } from './outbox/outbox';
import { MESSAGE_STATUSES } from './outbox/stored';

export interface Metrics {
  readonly registry: Registry;
  readonly observer: DeliveryObserver;
  /** Counts a request the rate limiter refused. */
  rateLimited(): void;
  /** Counts a message stored, by status. */
  stored(spam: boolean): void;
}

/**
 * The service's metrics in Prometheus' text format. The outbox figures (messages by state, age of
 * the oldest undelivered one) are read at scrape time, so they are true even across restarts; the
 * counters and the latency histogram are this process's since it started.
 */
export function createMetrics(
  outbox: Outbox,
  delivery: () => DeliveryStatus,
  now: () => number = Date.now,
): Metrics {
  const registry = new Registry();
  new Gauge({
    name: 'mail_outbox_messages',
    help: 'Messages in the outbox by state (failed: kept after a permanent refusal or the retry limit)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await outbox.counts();
      for (const state of MESSAGE_STATUSES) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: 'mail_outbox_failed_unacknowledged',
    help: 'Failed messages no operator has acknowledged or requeued yet',
    registers: [registry],
    async collect() {
      this.set(await outbox.unacknowledgedFailed());
    },
  });
  new Gauge({
    name: 'mail_outbox_oldest_queued_age_seconds',
    help: 'How long the longest-waiting queued message has waited since its acceptance or requeue (0 when none)',
    registers: [registry],
    async collect() {
      const at = await outbox.oldestQueuedAt();
      this.set(at === undefined ? 0 : Math.max(0, (now() - at) / 1000));
    },
  });
  new Gauge({
    name: 'mail_delivery_recording',
    help: '1 while delivery results can be recorded; 0 while delivery waits for storage',
    registers: [registry],
    collect() {
      this.set(delivery().recording ? 1 : 0);
    },
  });
  const droppedLines = droppedSinceLastCall();
  new Counter({
    name: 'mail_log_lines_dropped_total',
    help: `Log lines dropped because standard output was not taken in (more than ${LOG_BUFFER_BYTES / 1024 / 1024} MB waiting)`,
    registers: [registry],
    collect() {
      this.inc(droppedLines());
    },
  });
  const attempts = new Counter({
    name: 'mail_delivery_attempts_total',
    help: 'Delivery attempts by outcome and, for failures, kind',
    labelNames: ['outcome', 'kind'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mail_delivery_latency_seconds',
    help: 'Time from acceptance (202) to the relay accepting the message',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 86_400],
    registers: [registry],
  });
  const recordFailures = new Counter({
    name: 'mail_delivery_record_failures_total',
    help: 'Delivery results that could not be written to the outbox',
    registers: [registry],
  });
  const limited = new Counter({
    name: 'mail_rate_limited_total',
    help: 'Messages refused by the rate limit',
    registers: [registry],
  });
  const stored = new Counter({
    name: 'mail_messages_stored_total',
    help: 'Messages accepted and stored, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  return {
    registry,
    observer: {
      attempt: (outcome, kind) => attempts.inc({ outcome, kind: kind ?? 'none' }),
      delivered: (ms) => latency.observe(ms / 1000),
      recordFailed: () => recordFailures.inc(),
    },
    rateLimited: () => limited.inc(),
    stored: (spam) => stored.inc({ kind: spam ? 'spam' : 'message' }),
  };
}
