/**
 * GET /api/privacy: how long this service keeps what the contact form sends, as it runs now. The
 * site's privacy notice states these figures, so a changed setting changes the notice too.
 */
import type { RequestHandler } from 'express';
import type { RetentionFigures } from '@site/contracts/contact/retention';
import type { Config } from '../config';

type PrivacyConfig = Pick<
  Config,
  'RETENTION_DAYS' | 'SPAM_RETENTION_DAYS' | 'QUEUE_LIFETIME' | 'RATE_LIMIT_WINDOW'
>;

export function privacyFigures(config: PrivacyConfig): RequestHandler {
  const figures: RetentionFigures = {
    retentionDays: config.RETENTION_DAYS,
    spamRetentionDays: config.SPAM_RETENTION_DAYS,
    queueLifetimeSeconds: config.QUEUE_LIFETIME,
    rateLimitWindowSeconds: config.RATE_LIMIT_WINDOW,
  };
  return (_req, res) => {
    // Settings change only with a restart: a browser may keep the answer a few minutes.
    res.set('Cache-Control', 'public, max-age=300');
    res.json(figures);
  };
}
