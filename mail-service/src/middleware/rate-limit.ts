/**
 * Who a client is, as the rate limit and idempotency keys count them, and the rate limit on
 * stored messages (express-rate-limit, its counters in PostgreSQL: postgres-rate-limit-store.ts).
 */
import type { Request, RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator, type RateLimitInfo, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { sendError } from '../errors';
import type { Metrics } from '../metrics';

const human = (seconds: number) =>
  seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;

/**
 * The key a client is counted under: its address, an IPv6 client by its /64. Behind a trusted
 * proxy that does not say who its client was, every visitor would share the proxy's one
 * allowance: the first such request is logged, so the operator can fix the proxy.
 */
export function clientKey(
  config: Pick<Config, 'TRUST_PROXY'>,
  logger: Logger,
): (req: Request) => string {
  let warnedNoForwardedFor = false;
  return (req) => {
    const ip = req.ip ?? 'unknown';
    if (
      !warnedNoForwardedFor &&
      config.TRUST_PROXY !== false &&
      req.get('x-forwarded-for') === undefined
    ) {
      const trust = req.app.get('trust proxy fn') as (addr: string, i: number) => boolean;
      if (trust(req.socket.remoteAddress ?? '', 0)) {
        warnedNoForwardedFor = true;
        logger.warn(
          { proxy: req.socket.remoteAddress },
          'a request came from a trusted proxy (TRUST_PROXY) without X-Forwarded-For: all its visitors share one rate limit; make the proxy append the client address',
        );
      }
    }
    return ipKeyGenerator(ip, 64);
  };
}

export interface RateLimitDeps {
  config: Pick<Config, 'RATE_LIMIT_MAX' | 'RATE_LIMIT_WINDOW'>;
  clientOf: (req: Request) => string;
  metrics?: Metrics | undefined;
  store: Store;
  now: () => number;
}

/**
 * At most RATE_LIMIT_MAX stored messages per client per RATE_LIMIT_WINDOW, answered 429 with
 * Retry-After. A repeat of a stored message (`res.locals.replay`) and a message that could not
 * be stored do not count.
 */
export function rateLimiter({
  config,
  clientOf,
  metrics,
  store,
  now,
}: RateLimitDeps): RequestHandler {
  return rateLimit({
    windowMs: config.RATE_LIMIT_WINDOW * 1000,
    limit: config.RATE_LIMIT_MAX,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => clientOf(req),
    // A repeat of a stored message is answered as before and is not counted again.
    skip: (_req, res) => res.locals.replay !== undefined,
    // A message that could not be stored (503) gives the allowance back.
    skipFailedRequests: true,
    store,
    // The checks it would print to the console are this module's business: trust proxy is
    // configured and validated in config.ts, and the key generator handles IPv6.
    validate: false,
    handler: (req, res) => {
      metrics?.rateLimited();
      const reset = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
      const seconds = Math.max(
        1,
        Math.ceil(
          ((reset ? reset.getTime() : now() + config.RATE_LIMIT_WINDOW * 1000) - now()) / 1000,
        ),
      );
      res.set('Retry-After', String(seconds));
      sendError(
        res,
        429,
        'rate_limited',
        `You have sent several messages in a short time. Please try again in ${human(seconds)}.`,
      );
    },
  });
}
