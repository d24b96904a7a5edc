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
