import { isUtf8 } from 'node:buffer';
import { parse as parseContentType } from 'content-type';
import cors from 'cors';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
} from 'express';
import { rateLimit, ipKeyGenerator, type RateLimitInfo, type Store } from 'express-rate-limit';
import helmet from 'helmet';
import type { Logger } from 'pino';
import {
  CONTACT_MESSAGES,
  contactMessageSchema,
  fieldErrors,
  hasUtf8LocalPart,
  type ContactMessage,
} from '@site/shared/contact';
import { BODY_LIMIT_BYTES, type Config } from './config';
import { csrfProtection, issueCsrfToken, tokensMatch } from './csrf';
import type { DeliveryStatus } from './delivery/worker';
import { sendError } from './errors';
import type { Metrics } from './metrics';
import type { EnqueueResult } from './outbox/intake';
import type { Outbox } from './outbox/outbox';
import type { MessageCounts } from './outbox/queries';

export interface AppDeps {
  config: Pick<
    Config,
    | 'allowedOrigins'
    | 'trustProxy'
    | 'rateLimitMax'
    | 'rateLimitWindowSeconds'
    | 'readyMaxQueueAgeSeconds'
    | 'metricsToken'
  >;
  outbox: Outbox;
  delivery: { kick(): void; status(): DeliveryStatus; admit?(): Promise<void> | undefined };
  logger: Logger;
  metrics?: Metrics;
  /** Where rate-limit counters live: in memory unless instances share a store (Redis, say). */
  rateLimitStore?: Store;
  now?: () => number;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** 1 to 200 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,200}$/;
/** /api/ready re-checks the disk at most this often, so polling it cannot turn into fsync load. */
const PROBE_CACHE_MS = 1000;

const human = (seconds: number) =>
  seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;

type JsonBody = { ok: true; value: unknown } | { ok: false; error: string; message: string };

/** The request body as JSON: UTF-8 only (invalid bytes are refused, not replaced), one value. */
function parseJson(body: unknown): JsonBody {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    return {
      ok: false,
      error: 'empty_body',
      message: 'The request has no body: send the message as JSON.',
    };
  }
  if (!isUtf8(body)) {
    return {
      ok: false,
      error: 'invalid_encoding',
      message: 'The request body is not valid UTF-8 text.',
    };
  }
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'invalid_json', message: 'The request body is not valid JSON.' };
  }
}

/** 415 unless the body is declared as JSON in UTF-8 (the only charset JSON may use on the wire). */
const requireJson: RequestHandler = (req, res, next) => {
  let charset: string | undefined;
  try {
    charset = parseContentType(req.get('content-type') ?? '').parameters.charset?.toLowerCase();
  } catch {
    charset = 'invalid';
  }
  if (
    req.is('application/json') !== 'application/json' ||
    (charset && charset !== 'utf-8' && charset !== 'utf8')
  ) {
    return sendError(
      res,
      415,
      'unsupported_media_type',
      'Send the message as JSON, with Content-Type: application/json.',
    );
  }
  next();
};

// Read as bytes so that invalid UTF-8 can be refused instead of silently turned into U+FFFD.
// Compressed bodies are refused (inflate: false): the size limit must be the size on the wire.
const readBody = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES, inflate: false });

/** CORS for the allowlisted origins only; anyone else gets no CORS headers at all. */
function corsFor(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const withHeaders = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['Content-Type', 'X-XSRF-TOKEN', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => {
    const origin = req.get('origin');
    // A preflight from another origin is answered plainly: the browser would block it anyway,
    // and a clear 403 says why to whoever is debugging it.
    if (req.method === 'OPTIONS' && origin !== undefined && !allowed.has(origin)) {
      res.vary('Origin');
      return sendError(
        res,
        403,
        'forbidden_origin',
        'This origin may not call the message service.',
      );
    }
    if (req.method === 'OPTIONS' && origin === undefined) {
      res.set('Allow', 'GET, POST, OPTIONS');
      return res.status(204).end();
    }
    withHeaders(req, res, next);
  };
}

const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Builds the HTTP app. It does not listen: the service's entry point does, and tests drive it in-process. */
export function createApp(deps: AppDeps): Express {
  const { config, outbox, delivery, logger, metrics } = deps;
  const now = deps.now ?? Date.now;
  let probe = { at: -Infinity, writable: false };
  let warnedNoForwardedFor = false;

  const app = express();
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.set('json escape', true);
  app.set('query parser', false);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const entry = {
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      };
      if (req.path === '/api/health' || req.path === '/api/ready' || req.path === '/api/metrics')
        logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });
    res.set('Cache-Control', 'no-store');
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      xFrameOptions: { action: 'deny' },
    }),
  );
  app.use(corsFor(config.allowedOrigins));
  const csrf = csrfProtection(config.allowedOrigins);
  app.use((req, res, next) => (UNSAFE_METHODS.has(req.method) ? csrf(req, res, next) : next()));

  app.get('/api/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/api/ready', (_req, res) => {
    const t = now();
    if (t - probe.at >= PROBE_CACHE_MS) probe = { at: t, writable: outbox.probeWritable() };
    const d = delivery.status();
    let messages: MessageCounts | null = null;
    let oldestQueuedAt: number | undefined;
    let unacknowledgedFailed = 0;
    try {
      messages = outbox.counts();
      oldestQueuedAt = outbox.oldestQueuedAt();
      unacknowledgedFailed = outbox.unacknowledgedFailed();
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
    if (oldestAgeSeconds !== null && oldestAgeSeconds > config.readyMaxQueueAgeSeconds)
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
  });

  // Not public by default: without METRICS_TOKEN there is nothing here, and with it only a
  // scraper holding the token gets an answer (the site forwards all of /api/* to this service).
  app.get('/api/metrics', async (req, res) => {
    const auth = req.get('authorization') ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
    if (!config.metricsToken || !metrics || !tokensMatch(token, config.metricsToken)) {
      return sendError(res, 404, 'not_found', 'There is nothing at this address.');
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.get('/api/csrf', issueCsrfToken);

  /** The key a client is counted under: its address, an IPv6 client by its /64. */
  const clientOf = (req: Request): string => {
    const ip = req.ip ?? 'unknown';
    // Behind a trusted proxy that does not say who its client was, every visitor would share the
    // proxy's one allowance: say so once, so the operator can fix the proxy.
    if (
      !warnedNoForwardedFor &&
      config.trustProxy !== false &&
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

  const limiter = rateLimit({
    windowMs: config.rateLimitWindowSeconds * 1000,
    limit: config.rateLimitMax,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => clientOf(req),
    // A repeat of a stored message is answered as before and is not counted again.
    skip: (_req, res) => res.locals.replay !== undefined,
    // A message that could not be stored (503) gives the allowance back.
    skipFailedRequests: true,
    ...(deps.rateLimitStore ? { store: deps.rateLimitStore } : {}),
    // The checks it would print to the console are this file's business: trust proxy is
    // configured and validated in config.ts, and the key generator handles IPv6.
    validate: false,
    handler: (req, res) => {
      metrics?.rateLimited();
      const reset = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
      const seconds = Math.max(
        1,
        Math.ceil(
          ((reset ? reset.getTime() : now() + config.rateLimitWindowSeconds * 1000) - now()) / 1000,
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

  interface Accepted {
    payload: ContactMessage;
    key: string | undefined;
    client: string;
    replay?: Promise<EnqueueResult>;
  }

  const validate: RequestHandler = (req, res, next) => {
    const rawKey = req.get('idempotency-key');
    if (rawKey !== undefined && !IDEMPOTENCY_KEY.test(rawKey)) {
      return sendError(
        res,
        400,
        'invalid_idempotency_key',
        'The Idempotency-Key header must be 1 to 200 printable characters.',
      );
    }
    const json = parseJson(req.body);
    if (!json.ok) return sendError(res, 400, json.error, json.message);
    const parsed = contactMessageSchema.safeParse(json.value);
    if (!parsed.success) {
      return sendError(res, 400, 'invalid_message', CONTACT_MESSAGES.fillMissing, {
        fields: fieldErrors(parsed.error),
      });
    }
    const payload = parsed.data;
    // An address with a UTF-8 local part can only be put in the Reply-To when the relay takes
    // SMTPUTF8; when it is known not to, the visitor is told now rather than never answered.
    if (hasUtf8LocalPart(payload.user.email) && delivery.status().smtpUtf8 === false) {
      return sendError(res, 400, 'invalid_message', CONTACT_MESSAGES.fillMissing, {
        fields: [{ path: 'user.email', message: CONTACT_MESSAGES.emailNeedsAscii }],
      });
    }
    const client = clientOf(req);
    const accepted: Accepted = { payload, key: rawKey, client };
    if (rawKey !== undefined) {
      const replay = outbox.replayOf(client, rawKey, payload);
      if (replay) {
        accepted.replay = replay;
        res.locals.replay = true;
      }
    }
    res.locals.accepted = accepted;
    next();
  };

  app.post('/api/sendmail', requireJson, readBody, validate, limiter, async (_req, res) => {
    const { payload, key, client, replay } = res.locals.accepted as Accepted;
    const spam = (payload.website ?? '').trim() !== '';
    if (!replay && !spam) await delivery.admit?.();
    let result: EnqueueResult;
    try {
      result = await (replay ?? outbox.enqueue({ payload, spam, client, idempotencyKey: key }));
    } catch (error) {
      logger.error(
        { err: error instanceof Error ? error.message : 'unknown' },
        'could not store a message: check that DATA_DIR has space and is writable',
      );
      res.set('Retry-After', '60');
      return sendError(
        res,
        503,
        'storage_unavailable',
        'Your message could not be saved just now. Please try again in a minute.',
      );
    }
    if (result.outcome === 'conflict') {
      return sendError(
        res,
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different message. Send a new message with a new key.',
      );
    }
    if (result.outcome === 'replay') {
      logger.info({ messageId: result.messageId, replay: true }, 'message already stored');
      return res.status(202).json({ messageId: result.messageId });
    }
    metrics?.stored(spam);
    logger.info(
      {
        messageId: result.messageId,
        emailDomain: emailDomain(payload.user.email),
        bodyChars: payload.message.body.length,
        spam,
      },
      spam ? 'message stored as spam (honeypot filled)' : 'message stored',
    );
    if (!spam) delivery.kick();
    res.status(202).json({ messageId: result.messageId });
  });

  const methodNotAllowed =
    (allow: string): RequestHandler =>
    (_req, res) => {
      res.set('Allow', allow);
      sendError(res, 405, 'method_not_allowed', `Use ${allow} for this address.`);
    };
  app.all('/api/sendmail', methodNotAllowed('POST'));
  app.all(['/api/health', '/api/ready', '/api/csrf', '/api/metrics'], methodNotAllowed('GET'));

  app.use((_req, res) => {
    sendError(res, 404, 'not_found', 'There is nothing at this address.');
  });

  // Express tells error handlers apart by their four parameters, so `_next` must stay.
  const onError: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>;
    const status = typeof e.status === 'number' ? e.status : 500;
    const type = typeof e.type === 'string' ? e.type : '';
    if (res.headersSent) return;
    if (status === 413 || type === 'entity.too.large') {
      return sendError(
        res,
        413,
        'payload_too_large',
        `The message is too large: at most ${BODY_LIMIT_BYTES / 1024} KB of JSON is accepted.`,
      );
    }
    if (status === 415) {
      return sendError(
        res,
        415,
        'unsupported_media_type',
        'Send the message as uncompressed JSON.',
      );
    }
    if (status >= 400 && status < 500) {
      return sendError(res, 400, 'bad_request', 'The request could not be read.');
    }
    logger.error({ err: err instanceof Error ? err.message : String(err) }, 'unexpected error');
    sendError(res, 500, 'internal_error', 'Something went wrong on our side. Please try again.');
  };
  app.use(onError);

  return app;
}
