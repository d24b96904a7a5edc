/** GET /api/csrf: a fresh double-submit token, as a cookie the page can read and in the body. */
import type { RequestHandler } from 'express';
import { CSRF_COOKIE, newCsrfToken } from '../csrf';

export const issueCsrfToken: RequestHandler = (req, res) => {
  const token = newCsrfToken();
  res.cookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'strict',
    // The page reads the cookie and echoes it in a header: that is the double submit.
    httpOnly: false,
    secure: req.secure,
  });
  res.json({ token });
};
