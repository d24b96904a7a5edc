/**
 * GET /api/form-token: the time trap's token, the server's signed time now. The page fetches it
 * when the form is first used and sends it back with the message as `formStartedToken`.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { storageUnavailable } from '../errors';
import type { FormTokens } from '../form-token';
import { OUTBOX_UNAVAILABLE } from '../outbox/outbox';

export function issueFormToken(formTokens: FormTokens, logger: Logger): RequestHandler {
  return async (_req, res) => {
    let token: string;
    try {
      token = await formTokens.issue();
    } catch (error) {
      // The secret is kept in the database when FORM_TOKEN_SECRET is unset, and read once.
      logger.error(
        { err: error instanceof Error ? error.message : 'unknown' },
        `could not read the server secret: ${OUTBOX_UNAVAILABLE}; form tokens are answered 503 until then`,
      );
      return storageUnavailable(res, 'The form cannot be checked just now.');
    }
    res.set('Cache-Control', 'no-store');
    res.json({ token });
  };
}
