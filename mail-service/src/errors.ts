import type { Response } from 'express';

/** Every error the service answers: `{ error, message }`, a code for programs and a sentence for people. */
export interface ErrorBody {
  error: string;
  message: string;
  [extra: string]: unknown;
}

export function sendError(
  res: Response,
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  const body: ErrorBody = { error, message, ...extra };
  res.status(status).json(body);
}

/** How long a client is asked to wait while the outbox (its disk or its database) cannot be used. */
export const STORAGE_RETRY_AFTER_SECONDS = 60;

/**
 * The answer while the outbox cannot be used: 503 with Retry-After, so that clients and balancers
 * wait and try again rather than take the service for broken.
 */
export function storageUnavailable(res: Response, what: string): void {
  res.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
  sendError(res, 503, 'storage_unavailable', `${what} Please try again in a minute.`);
}
