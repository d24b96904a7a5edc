import type { Express } from 'express';
import pino, { type Logger } from 'pino';
import { logDestination } from '@site/serving/request-log';
import { createApp } from './app';
import type { Config } from './config';
import type { Courier } from './delivery/courier';
import { cleanMailboxTemp, createMailboxCourier } from './delivery/mailbox-courier';
import { createSmtpCourier, type SmtpTimeouts } from './delivery/smtp-courier';
import { DeliveryWorker, type DeliveryStatus } from './delivery/worker';
import { DIGEST_CHECK_MS, sendDigestIfDue } from './delivery/digest';
import { FormTokens } from './form-token';
import { createMetrics, type Metrics } from './metrics';
import { PostgresRateLimitStore } from './middleware/postgres-rate-limit-store';
import { openOutbox } from './outbox/open';
import type { Outbox } from './outbox/outbox';
import { serverSecret } from './secret';

export interface ServiceDeps {
  logger?: Logger;
  now?: () => number;
  smtpTimeouts?: SmtpTimeouts;
  /** How often the worker looks at the outbox when nothing is due. */
  pollMs?: number;
  /** In-flow control: messages accepted ahead of delivery before intake waits (see DeliveryWorker.admit). */
  inFlowBurst?: number;
  /** The longest a request waits for delivery to catch up; 0 turns in-flow control off. */
  inFlowDelayMs?: number;
  /** How often retention runs (it also runs at start). */
  retentionEveryMs?: number;
  /** CLAIM_LEASE_MS, for a test that needs it shorter than its minimum. */
  leaseMs?: number;
  /** The digest of held messages at most this often (a day). */
  digestEveryMs?: number;
  /** How often a digest is checked for (an hour; it also is at start). */
  digestCheckMs?: number;
}

export interface Service {
  app: Express;
  config: Config;
  outbox: Outbox;
  worker: DeliveryWorker;
  courier: Courier;
  metrics: Metrics;
  logger: Logger;
  /** Picks up what an earlier run left queued, starts delivery, retention and the relay check. */
  start(): Promise<void>;
  /** Stops delivery (the sends in progress finish), closes the relay pool and the outbox. */
  stop(): Promise<void>;
  /** Applies the retention policy now. */
  applyRetention(): Promise<{ redacted: number; deleted: number }>;
  /** Sends the digest of held messages if one is due; resolves with how many it listed. */
  sendDigest(): Promise<number>;
}

const DAY_MS = 86_400_000;

/**
 * The composition root: the outbox, the courier, the delivery worker, the metrics and the HTTP
 * app, wired the one way the server, the benchmark and the tests all use. It does not listen;
 * `outbox.ready()` says when the database can be used.
 */
export function createService(config: Config, deps: ServiceDeps = {}): Service {
  const logger =
    deps.logger ??
    pino({ level: config.LOG_LEVEL, base: { service: 'mail-service' } }, logDestination(1));
  const now = deps.now ?? Date.now;
  const { outbox, postgres } = openOutbox(
    config,
    { now, leaseMs: deps.leaseMs ?? config.CLAIM_LEASE_MS },
    (message) => logger.info(message),
  );
  // Instances on one database share the allowance too.
  const rateLimitStore = new PostgresRateLimitStore(postgres, now);
  const courier = config.SMTP_URL
    ? createSmtpCourier(config.SMTP_URL, {
        connections: config.SMTP_CONNECTIONS,
        ...(deps.smtpTimeouts ? { timeouts: deps.smtpTimeouts } : {}),
      })
    : createMailboxCourier(config.MAILBOX_DIR);
  // The metrics read the worker's state at scrape time; the worker reports to the metrics.
  const status = { of: (): DeliveryStatus | undefined => undefined };
  const metrics = createMetrics(outbox, () => status.of() as DeliveryStatus, now);
  const worker = new DeliveryWorker({
    outbox,
    courier,
    mail: config,
    logger,
    retryBaseMs: config.RETRY_BASE_MS,
    retryMaxMs: config.RETRY_MAX_MS,
    queueLifetimeMs: config.QUEUE_LIFETIME * 1000,
    concurrency: courier.mode === 'smtp' ? config.SMTP_CONNECTIONS : 1,
    observer: metrics.observer,
    now,
    ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
    ...(deps.inFlowBurst !== undefined ? { inFlowBurst: deps.inFlowBurst } : {}),
    ...(deps.inFlowDelayMs !== undefined ? { inFlowDelayMs: deps.inFlowDelayMs } : {}),
  });
  status.of = () => worker.status();
  const secret = serverSecret(config, outbox);
  const sendDigest = () =>
    sendDigestIfDue({
      outbox,
      courier,
      config,
      secret,
      logger,
      now,
      ...(deps.digestEveryMs !== undefined ? { everyMs: deps.digestEveryMs } : {}),
    }).catch((error: unknown) => {
      logger.error({ err: String(error) }, 'the digest of held messages could not be checked');
      return 0;
    });
  const app = createApp({
    config,
    outbox,
    delivery: worker,
    logger,
    metrics,
    now,
    formTokens: new FormTokens(secret, now),
    secret,
    rateLimitStore,
  });

  const applyRetention = async () => {
    const result = await outbox.applyRetention({
      deliveredMs: config.RETENTION_DAYS * DAY_MS,
      spamMs: config.SPAM_RETENTION_DAYS * DAY_MS,
    });
    if (result.redacted + result.deleted > 0) {
      logger.info(result, 'retention: personal data of old messages removed');
    }
    return result;
  };
  let retentionTimer: NodeJS.Timeout | undefined;
  let digestTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  return {
    app,
    config,
    outbox,
    worker,
    courier,
    metrics,
    logger,
    applyRetention,
    sendDigest,
    async start() {
      const retention = () =>
        applyRetention().catch((error: unknown) => {
          logger.error({ err: String(error) }, 'retention could not run; it is tried again later');
        });
      try {
        await outbox.retryQueuedNow();
      } catch (error) {
        logger.error({ err: String(error) }, 'the outbox could not be read at start');
      }
      await retention();
      if (stopped) return;
      retentionTimer = setInterval(() => void retention(), deps.retentionEveryMs ?? 3_600_000);
      retentionTimer.unref();
      if (!config.SMTP_URL) await cleanMailboxTemp(config.MAILBOX_DIR);
      // Stopped while the mailbox was being cleaned (a test, a quick SIGTERM): nothing to start.
      if (stopped) return;
      worker.start();
      void worker.verify();
      // The last digest's time is in the database, so a restart does not reset the day.
      digestTimer = setInterval(() => void sendDigest(), deps.digestCheckMs ?? DIGEST_CHECK_MS);
      digestTimer.unref();
    },
    async stop() {
      stopped = true;
      if (retentionTimer) clearInterval(retentionTimer);
      if (digestTimer) clearInterval(digestTimer);
      await worker.stop();
      courier.close();
      rateLimitStore.shutdown();
      await outbox.close();
      await postgres.close();
    },
  };
}
