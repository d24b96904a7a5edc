/**
 * The HTTP API: Express settings, the middleware every request passes (log, security headers,
 * CORS, CSRF) and the routes, in the order they apply. Each route lives in src/routes/, each
 * middleware in src/middleware/.
 */
import express, { type Express } from 'express';
import type { Store } from 'express-rate-limit';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { PRIVACY_FIGURES_PATH } from '@site/contracts/contact/retention';
import type { Config } from './config';
import { csrfProtection } from './csrf';
import type { DeliveryStatus } from './delivery/worker';
import type { FormTokens } from './form-token';
import type { Metrics } from './metrics';
import { corsFor } from './middleware/cors';
import { errorHandler, methodNotAllowed, notFound } from './middleware/fallbacks';
import { readBody, requireJson } from './middleware/json-body';
import { clientKey, rateLimiter } from './middleware/rate-limit';
import { requestLog } from './middleware/request-log';
import type { Outbox } from './outbox/outbox';
import { RELEASE_PATH } from './delivery/digest';
import type { ServerSecret } from './secret';
import { issueCsrfToken } from './routes/csrf';
import { issueFormToken } from './routes/form-token';
import { health, readiness } from './routes/health';
import { heldPage, releaseHeld } from './routes/held';
import { metricsEndpoint } from './routes/metrics';
import { privacyFigures } from './routes/privacy';
import { storeMessage, validateMessage } from './routes/sendmail';

export interface AppDeps {
  config: Pick<
    Config,
    | 'ALLOWED_ORIGINS'
    | 'TRUST_PROXY'
    | 'RATE_LIMIT_MAX'
    | 'RATE_LIMIT_WINDOW'
    | 'READY_MAX_QUEUE_AGE'
    | 'METRICS_TOKEN'
    | 'FORM_MIN_FILL_MS'
    | 'SPAM_MAX_LINKS'
    | 'RETENTION_DAYS'
    | 'SPAM_RETENTION_DAYS'
    | 'QUEUE_LIFETIME'
  >;
  outbox: Outbox;
  delivery: { kick(): void; status(): DeliveryStatus; admit?(): Promise<void> | undefined };
  logger: Logger;
  metrics?: Metrics;
  /** The time trap's tokens (issued by GET /api/form-token, checked on POST /api/sendmail). */
  formTokens: FormTokens;
  /** Signs and checks the release links of held messages. */
  secret: ServerSecret;
  /** Where rate-limit counters live, so that every instance counts a client against one allowance. */
  rateLimitStore: Store;
  now?: () => number;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Builds the HTTP app. It does not listen: the service's entry point does, and tests drive it in-process. */
export function createApp(deps: AppDeps): Express {
  const { config, outbox, delivery, logger, metrics, formTokens } = deps;
  const now = deps.now ?? Date.now;
  const clientOf = clientKey(config, logger);

  const app = express();
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('etag', false);
  app.set('json escape', true);
  app.set('query parser', false);

  app.use(requestLog(logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      xFrameOptions: { action: 'deny' },
    }),
  );
  app.use(corsFor(config.ALLOWED_ORIGINS));
  // A held message's release link, from the digest e-mail: its signature is its authority, so
  // it comes before the CSRF checks a plain HTML form cannot pass (see routes/held.ts).
  const held = { outbox, secret: deps.secret, delivery, logger };
  const heldPath = `${RELEASE_PATH}/:id/:signature`;
  app.get(heldPath, heldPage(held));
  app.post(heldPath, releaseHeld(held));
  app.all(heldPath, methodNotAllowed('GET, POST'));
  const csrf = csrfProtection(config.ALLOWED_ORIGINS);
  app.use((req, res, next) => (UNSAFE_METHODS.has(req.method) ? csrf(req, res, next) : next()));

  app.get('/api/health', health);
  app.get('/api/ready', readiness({ config, outbox, delivery, now }));
  app.get('/api/metrics', metricsEndpoint({ config, metrics }));
  app.get(PRIVACY_FIGURES_PATH, privacyFigures(config));
  app.get('/api/csrf', issueCsrfToken);
  app.get('/api/form-token', issueFormToken(formTokens, logger));
  app.post(
    '/api/sendmail',
    requireJson,
    readBody,
    validateMessage({ outbox, delivery, clientOf }),
    rateLimiter({ config, clientOf, metrics, store: deps.rateLimitStore, now }),
    storeMessage({
      outbox,
      delivery,
      logger,
      metrics,
      formTokens,
      spamRules: config,
    }),
  );

  app.all('/api/sendmail', methodNotAllowed('POST'));
  app.all(
    [
      '/api/health',
      '/api/ready',
      '/api/csrf',
      '/api/form-token',
      '/api/metrics',
      PRIVACY_FIGURES_PATH,
    ],
    methodNotAllowed('GET'),
  );
  app.use(notFound);
  app.use(errorHandler(logger));

  return app;
}
