/**
 * `DATABASE_URL` as the site server and the mail-service each read it at start (their zod schemas):
 * required, a postgres:// URL that names a host and a database, and never echoed back, as it may
 * hold a password. `needed` says what the service keeps there, for the message when it is unset.
 */
import { z } from 'zod';
import { databaseUrlProblem } from './errors';

export const databaseUrlSetting = (needed: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `is not set: ${needed} (postgres://user:password@host:5432/database); npm start runs an embedded PostgreSQL and passes its URL`
          : 'expected a postgres:// URL',
    })
    .transform((value, ctx) => {
      const problem = databaseUrlProblem(value);
      if (!problem) return value;
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    });
