/**
 * GET /api/form-token: the time trap's token, the server's signed time now. The page fetches it
 * when the form is first used and sends it back with the message as `formStartedToken`.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { sendError } from '../errors';
import type { FormTokens } from '../form-token';

export function issueFormToken(formTokens: FormTokens, logger: Logger): RequestHandler {
  return async (_req, res) => {
    let token: string;
    try {
      token = await formTokens.issue();
    } catch (error) {
      // The secret is kept in the store when FORM_TOKEN_SECRET is unset.
      logger.error(
        { err: error instanceof Error ? error.message : 'unknown' },
        'could not read the server secret from the outbox: check DATA_DIR or DATABASE_URL, or set FORM_TOKEN_SECRET',
      );
      res.set('Retry-After', '60');
      return sendError(
        res,
        503,
        'storage_unavailable',
        'The form cannot be checked just now. Please try again in a minute.',
      );
    }
    res.set('Cache-Control', 'no-store');
    res.json({ token });
  };
}
