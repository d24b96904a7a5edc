/**
 * One delivery attempt: the message built and handed to the courier, and the relay's answer
 * judged (delivered, retried after a backoff, or kept as failed) into the result the outbox
 * records, with the log line and the metrics that go with it.
 */
import type { Logger } from 'pino';
import type { AttemptResult, StoredMessage } from '../outbox/queue';
import { isStringArray, type Courier, type Refusal } from './courier';
import {
  OPERATOR_HINT,
  backoffMs,
  classify,
  describeError,
  relayReply,
  type FailureKind,
} from './failures';
import { buildMail, type MailConfig } from './message';

/** What the worker reports for metrics. */
export interface DeliveryObserver {
  attempt(outcome: 'delivered' | 'retry' | 'failed', kind: FailureKind | null): void;
  /** From acceptance to the relay's acceptance. */
  delivered(latencyMs: number): void;
  recordFailed(): void;
}

/** The worker's settings an attempt reads. */
export interface AttemptOptions {
  courier: Courier;
  mail: MailConfig;
  logger: Logger;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a message is retried before it is kept as failed, from its acceptance. */
  queueLifetimeMs: number;
  observer?: DeliveryObserver;
}

/** The worker's clock, its randomness for the backoff, and where it notes whether sends work. */
export interface AttemptContext {
  now: () => number;
  random: () => number;
  note: (ok: boolean, error: string | null) => void;
}

const days = (ms: number) =>
  ms >= 2 * 86_400_000
    ? `${Math.round(ms / 86_400_000)} days`
    : `${Math.round(ms / 60_000)} minutes`;

/** Sends one message (to the recipients that have not taken it yet) and judges the answer. */
export async function deliverOne(
  message: StoredMessage,
  o: AttemptOptions,
  { now, random, note }: AttemptContext,
): Promise<AttemptResult> {
  const attempts = message.attempts + 1;
  const log = { messageId: message.id, attempt: attempts, mode: o.courier.mode };
  const all = o.mail.MAIL_TO.map((a) => a.address);
  const done = new Set(message.doneRecipients);
  const remaining = all.filter((a) => !done.has(a));
  let accepted: string[] = [];
  let rejected: Refusal[] = [];
  let failure: unknown;
  try {
    const utf8 = o.courier.smtpUtf8() !== false;
    const mail = buildMail(message, o.mail, { smtpUtf8: utf8 });
    ({ accepted, rejected } = await o.courier.send(mail, message, remaining));
    await o.courier.settle();
  } catch (error) {
    failure = error;
    const e = error as { rejected?: unknown; rejectedErrors?: unknown };
    // Every recipient refused at RCPT TO: judged recipient by recipient, like a partial refusal.
    if (isStringArray(e.rejected) && Array.isArray(e.rejectedErrors)) {
      const errors = e.rejectedErrors as unknown[];
      rejected = e.rejected.map((recipient, i) => ({ recipient, error: errors[i] }));
    }
  }
  const recipients = [...message.doneRecipients, ...accepted];

  if (failure === undefined && rejected.length === 0) {
    note(true, null);
    o.observer?.attempt('delivered', null);
    o.observer?.delivered(now() - message.createdAt);
    o.logger.info(log, 'message delivered');
    return { id: message.id, claim: message.claim, outcome: 'delivered', attempts, recipients };
  }

  // The worst refusal decides: anything worth retrying keeps the message queued for those
  // recipients; only refusals that are all permanent make it failed.
  const kinds = rejected.length > 0 ? rejected.map((r) => classify(r.error)) : [classify(failure)];
  const kind: FailureKind = kinds.includes('configuration')
    ? 'configuration'
    : kinds.includes('transient')
      ? 'transient'
      : 'permanent';
  const cause = rejected[0]?.error ?? failure;
  const reason =
    rejected.length > 0
      ? `${describeError(cause)} refused ${rejected.map((r) => r.recipient).join(', ')}`
      : describeError(failure);
  if (accepted.length > 0) note(true, null);
  else note(kind === 'permanent', kind === 'permanent' ? null : reason);

  // The retry period starts at acceptance, or again at an operator's requeue.
  const age = now() - message.queuedAt;
  const expired = age >= o.queueLifetimeMs;
  if (kind === 'permanent' || expired) {
    o.observer?.attempt('failed', kind);
    o.logger.error(
      {
        ...log,
        err: reason,
        reply: relayReply(cause),
        kind,
        delivered: recipients,
        rejected: rejected.map((r) => r.recipient),
      },
      expired && kind !== 'permanent'
        ? `message not delivered after ${days(age)}; kept in the outbox as failed: fix the cause, then \`npm run outbox -w mail-service -- requeue ${message.id}\``
        : `message refused for good; kept in the outbox as failed: ${OPERATOR_HINT.permanent}`,
    );
    return {
      id: message.id,
      claim: message.claim,
      outcome: 'failed',
      attempts,
      error: reason,
      recipients,
    };
  }
  const wait = backoffMs(attempts, o.retryBaseMs, o.retryMaxMs, random);
  o.observer?.attempt('retry', kind);
  const entry = { ...log, err: reason, reply: relayReply(cause), kind, retryInMs: wait };
  if (kind === 'configuration') {
    o.logger.error(entry, `delivery failed: ${OPERATOR_HINT.configuration}`);
  } else o.logger.warn(entry, 'delivery failed; will retry');
  return {
    id: message.id,
    claim: message.claim,
    outcome: 'retry',
    attempts,
    nextAttemptAt: now() + wait,
    error: reason,
    recipients,
  };
}
