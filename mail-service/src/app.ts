import { isUtf8 } from 'node:buffer';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
} from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { CONTACT_MESSAGES, contactMessageSchema, fieldErrors } from '@site/shared/contact';
import { BODY_LIMIT_BYTES, type Config } from './config';
import { csrfProtection, issueCsrfToken } from './csrf';
import type { DeliveryStatus } from './delivery';
import { sendError } from './errors';
import type { EnqueueResult, MessageCounts, Outbox } from './outbox';
import { RateLimiter, clientKey } from './rate-limit';

export interface AppDeps {
  config: Pick<Config, 'allowedOrigins' | 'trustProxy' | 'rateLimitMax' | 'rateLimitWindowSeconds'>;
  outbox: Outbox;
  delivery: { kick(): void; status(): DeliveryStatus };
  logger: Logger;
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
  const header = req.get('content-type') ?? '';
  const [type = '', ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().toLowerCase())
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (
    type.trim().toLowerCase() !== 'application/json' ||
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
function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin !== undefined && allowed.has(origin)) {
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Expose-Headers': 'Retry-After',
      });
      if (req.method === 'OPTIONS') {
        res.set({
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': 'Content-Type, X-XSRF-TOKEN, Idempotency-Key',
          'Access-Control-Max-Age': '600',
        });
        return res.status(204).end();
      }
    } else if (req.method === 'OPTIONS') {
      if (origin !== undefined) {
        return sendError(
          res,
          403,
          'forbidden_origin',
          'This origin may not call the message service.',
        );
      }
      res.set('Allow', 'GET, POST, OPTIONS');
      return res.status(204).end();
    }
    next();
  };
}

const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Builds the HTTP app. It does not listen: src/server.ts does, and tests drive it in-process. */
export function createApp(deps: AppDeps): Express {
  const { config, outbox, delivery, logger } = deps;
  const now = deps.now ?? Date.now;
  const limiter = new RateLimiter({
    max: config.rateLimitMax,
    windowMs: config.rateLimitWindowSeconds * 1000,
    now,
  });
  let probe = { at: -Infinity, writable: false };

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
      if (req.path === '/api/health' || req.path === '/api/ready') logger.debug(entry, 'request');
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
  app.use(cors(config.allowedOrigins));
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
    try {
      messages = outbox.counts();
    } catch {
      // Reported below as not ready: an outbox that cannot be read cannot be written either.
    }
    const ready = probe.writable && messages !== null && d.working !== false;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      outbox: { writable: probe.writable },
      delivery: {
        mode: d.mode,
        working: d.working,
        lastAttemptAt: d.lastAttemptAt === null ? null : new Date(d.lastAttemptAt).toISOString(),
        lastError: d.lastError,
      },
      messages,
    });
  });

  app.get('/api/csrf', issueCsrfToken);

  app.post('/api/sendmail', requireJson, readBody, async (req: Request, res) => {
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

    // A repeat of a stored message is answered as before and is not counted again.
    const replay = rawKey === undefined ? undefined : outbox.replayOf(rawKey);
    if (!replay) {
      const decision = limiter.consume(clientKey(req.ip));
      if (!decision.allowed) {
        res.set('Retry-After', String(decision.retryAfterSeconds));
        return sendError(
          res,
          429,
          'rate_limited',
          `You have sent several messages in a short time. Please try again in ${human(decision.retryAfterSeconds)}.`,
        );
      }
    }

    const spam = (payload.website ?? '').trim() !== '';
    let result: EnqueueResult;
    try {
      result = await (replay ?? outbox.enqueue({ payload, spam, idempotencyKey: rawKey }));
    } catch (error) {
      logger.error(
        { err: error instanceof Error ? error.message : 'unknown' },
        'could not store a message',
      );
      res.set('Retry-After', '60');
      return sendError(
        res,
        503,
        'storage_unavailable',
        'Your message could not be saved just now. Please try again in a minute.',
      );
    }
    if (result.replay) {
      logger.info({ messageId: result.messageId, replay: true }, 'message already stored');
      return res.status(202).json({ messageId: result.messageId });
    }
    logger.info(
      {
        messageId: result.messageId,
        emailDomain: emailDomain(payload.user.email),
        bodyChars: payload.message.body.length,
        bytes: (req.body as Buffer).length,
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
  app.all(['/api/health', '/api/ready', '/api/csrf'], methodNotAllowed('GET'));

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
