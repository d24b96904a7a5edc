/**
 * Cross-origin access: the site's own origins (ALLOWED_ORIGINS) may call the API from a browser,
 * with credentials; preflights from any other origin are refused with a plain 403.
 */
import cors from 'cors';
import type { RequestHandler } from 'express';
import { sendError } from '../errors';

/** CORS for the allowlisted origins only; anyone else gets no CORS headers at all. */
export function corsFor(allowedOrigins: readonly string[]): RequestHandler {
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
