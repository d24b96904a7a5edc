/**
 * The answers for what no route takes: a wrong method on a known path (405 with Allow), an
 * unknown path (404), and errors thrown on the way (a JSON error, never a stack trace).
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { BODY_LIMIT_BYTES } from '../config';
import { sendError, storageUnavailable } from '../errors';
import { OUTBOX_UNAVAILABLE } from '../outbox/outbox';
import { isUnreachable } from '../postgres';

export const methodNotAllowed =
  (allow: string): RequestHandler =>
  (_req, res) => {
    res.set('Allow', allow);
    sendError(res, 405, 'method_not_allowed', `Use ${allow} for this address.`);
  };

export const notFound: RequestHandler = (_req, res) => {
  sendError(res, 404, 'not_found', 'There is nothing at this address.');
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  // Express tells error handlers apart by their four parameters, so `_next` must stay.
  return (err: unknown, _req, res, _next) => {
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
    if (isUnreachable(err)) {
      // A route that reached the database without its own answer for an outage: still a 503.
      logger.error({ err: String(err) }, `a request failed: ${OUTBOX_UNAVAILABLE}`);
      return storageUnavailable(res, 'This cannot be answered just now.');
    }
    logger.error({ err: err instanceof Error ? err.message : String(err) }, 'unexpected error');
    sendError(res, 500, 'internal_error', 'Something went wrong on our side. Please try again.');
  };
}
