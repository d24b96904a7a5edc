/**
 * CSRF protection for state-changing requests: the origin check (Origin, else Fetch Metadata) and
 * the double-submit token, compared in constant time.
 */
import { randomBytes } from 'node:crypto';
import { sameText } from '@site/serving/signatures';
import { parse as parseCookie } from 'cookie';
import type { Request, RequestHandler } from 'express';
import { sendError } from './errors';

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export const newCsrfToken = (): string => randomBytes(32).toString('base64url');

/**
 * Compares two tokens in constant time. Hashing first gives both sides the same length, so not
 * even the length of the expected token leaks through the timing.
 */
export const tokensMatch = (a: string, b: string): boolean => sameText(a, b);

export type OriginVerdict = 'ok' | 'foreign-origin' | 'cross-site' | 'no-origin';

/**
 * Whether a request comes from the site itself: its Origin is allowlisted, or, for the browsers
 * and paths that send no Origin, Fetch Metadata says same-origin. Neither header: refused, since
 * every browser that can run the form sends one of them.
 */
export function checkOrigin(req: Request, allowed: ReadonlySet<string>): OriginVerdict {
  const origin = req.get('origin');
  if (origin !== undefined) return allowed.has(origin) ? 'ok' : 'foreign-origin';
  const site = req.get('sec-fetch-site');
  if (site === undefined) return 'no-origin';
  return site === 'same-origin' ? 'ok' : 'cross-site';
}

/** Refuses state-changing requests that fail the origin check or the double-submit token. */
export function csrfProtection(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    const verdict = checkOrigin(req, allowed);
    if (verdict !== 'ok') {
      return sendError(res, 403, 'forbidden_origin', ORIGIN_MESSAGES[verdict]);
    }
    const cookie = parseCookie(req.get('cookie') ?? '')[CSRF_COOKIE];
    const header = req.get(CSRF_HEADER);
    if (!cookie || !header || !TOKEN_FORMAT.test(cookie) || !tokensMatch(cookie, header)) {
      return sendError(
        res,
        403,
        'invalid_csrf_token',
        'The security token of this page is missing or out of date. Please reload the page and send your message again.',
      );
    }
    next();
  };
}

const ORIGIN_MESSAGES: Record<Exclude<OriginVerdict, 'ok'>, string> = {
  'foreign-origin': 'Messages can only be sent from the website itself.',
  'cross-site': 'Messages can only be sent from the website itself.',
  'no-origin': 'This request did not say where it came from, so it was refused.',
};
