/**
 * What a failed send means: read from nodemailer's errors and the relay's replies, sorted into
 * the kinds the worker acts on, described for the log without any message content, and the wait
 * before the next attempt.
 */
interface ErrorFacts {
  code: string | undefined;
  command: string | undefined;
  responseCode: number | undefined;
  /** The relay's reply, if any: the company's server talking, never the visitor's text. */
  response: string | undefined;
}

function errorFacts(error: unknown): ErrorFacts {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return {
    code: typeof e.code === 'string' ? e.code : undefined,
    command: typeof e.command === 'string' ? e.command : undefined,
    responseCode: typeof e.responseCode === 'number' ? e.responseCode : undefined,
    response: typeof e.response === 'string' ? e.response.slice(0, 200) : undefined,
  };
}

/**
 * - `configuration`: the relay refuses *us* (credentials, "authentication required", relaying
 *   denied, our sender refused at MAIL FROM). Every message would fail alike and an operator can
 *   fix it, so messages wait and are retried like any outage, and the log says what to fix.
 * - `permanent`: the relay refused this message or this recipient for good (another 5xx).
 * - `transient`: everything else (refused or dropped connections, timeouts, 4xx, 503).
 */
export type FailureKind = 'configuration' | 'permanent' | 'transient';

// Our own credentials, TLS or set-up: nodemailer's codes for failures on our side.
const SERVICE_SIDE = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ECONFIG', 'ETLS', 'EREQUIRETLS']);
// 530 authentication required, 534/538 stronger authentication or encryption needed, 535 bad
// credentials, 551/554 with "relay": the relay does not take mail from us as configured.
const CONFIGURATION_CODES = new Set([530, 534, 535, 538]);
const RELAY_DENIED = /\brelay(ing)?\b.*\b(denied|not permitted|not allowed|access)\b|\b5\.7\.0\b/i;

export function classify(error: unknown): FailureKind {
  const f = errorFacts(error);
  if (f.code && SERVICE_SIDE.has(f.code)) return 'configuration';
  if (f.responseCode !== undefined && CONFIGURATION_CODES.has(f.responseCode)) {
    return 'configuration';
  }
  if (f.response && RELAY_DENIED.test(f.response)) return 'configuration';
  if (f.responseCode !== undefined && f.responseCode >= 500 && f.responseCode !== 503) {
    // Refused at MAIL FROM: the sender is ours (MAIL_FROM), so the message is not to blame.
    return f.command === 'MAIL FROM' ? 'configuration' : 'permanent';
  }
  return 'transient';
}

/** The relay's reply to a failed send, for the log. */
export const relayReply = (error: unknown): string | undefined => errorFacts(error).response;

/** A short, log-safe description of a delivery error (no message content, no credentials). */
export function describeError(error: unknown): string {
  const f = errorFacts(error);
  return [f.code, f.responseCode].filter((x) => x !== undefined).join(' ') || 'error';
}

/** What an operator should do about a failure of each kind, for the log. */
export const OPERATOR_HINT: Record<FailureKind, string> = {
  configuration:
    'the relay refuses the service itself (credentials, relaying or sender): check SMTP_URL and MAIL_FROM with the relay; messages wait and are retried',
  permanent:
    'the relay refused this message for good: see `npm run outbox -w mail-service -- list failed`',
  transient: 'will retry',
};

/**
 * The wait before attempt `attempt + 1`, after `attempt` failures: exponential from `baseMs`,
 * capped at `maxMs`, with "equal jitter" (half fixed, half random) so that messages queued
 * together do not all hit the relay again at the same moment.
 */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random = Math.random,
): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(exp / 2 + random() * (exp / 2));
}
