/**
 * How long the mail-service keeps what the contact form sends, as its settings default to and as
 * the privacy notice states it. The mail-service's settings take their defaults from here, and it
 * tells the site the figures it runs with (GET /api/privacy), so the notice and the outbox cannot
 * tell a visitor two different things.
 */
export interface RetentionFigures {
  /** A delivered message keeps the sender's name, address and text this many days (RETENTION_DAYS). */
  retentionDays: number;
  /** A message held as spam is deleted this many days after it was listed (SPAM_RETENTION_DAYS). */
  spamRetentionDays: number;
  /** An undelivered message is retried this long, in seconds, before it is kept as failed (QUEUE_LIFETIME). */
  queueLifetimeSeconds: number;
  /** A connection's count of messages is forgotten after this many seconds (RATE_LIMIT_WINDOW). */
  rateLimitWindowSeconds: number;
}

export const RETENTION_DEFAULTS: RetentionFigures = {
  retentionDays: 30,
  spamRetentionDays: 7,
  queueLifetimeSeconds: 5 * 86_400,
  rateLimitWindowSeconds: 600,
};

/** Where the mail-service answers with the figures it runs with. */
export const PRIVACY_FIGURES_PATH = '/api/privacy';

const whole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

/** The figures in an answer of PRIVACY_FIGURES_PATH, or undefined when it is not one. */
export function parseRetentionFigures(raw: unknown): RetentionFigures | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const figures = {
    retentionDays: r.retentionDays,
    spamRetentionDays: r.spamRetentionDays,
    queueLifetimeSeconds: r.queueLifetimeSeconds,
    rateLimitWindowSeconds: r.rateLimitWindowSeconds,
  };
  return whole(figures.retentionDays, 1, 3650) &&
    whole(figures.spamRetentionDays, 1, 3650) &&
    whole(figures.queueLifetimeSeconds, 1, 365 * 86_400) &&
    whole(figures.rateLimitWindowSeconds, 1, 86_400)
    ? (figures as RetentionFigures)
    : undefined;
}
