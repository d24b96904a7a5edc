/**
 * The forms a site server setting may take (a bounded whole number, an http(s) origin or a list
 * of them, an address to listen on, a folder, a token, a PostgreSQL URL), as zod schemas whose
 * messages say what the variable accepts; settings.ts declares which variable takes which.
 */
import path from 'node:path';
import { z } from 'zod';
import { LISTEN_HOST_FORMS, isListenHost } from '@site/serving';

export const wholeNumber = (what: string, min: number, max: number) =>
  z.string().transform((value, ctx) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not ${what} (${min} to ${max})` });
      return z.NEVER;
    }
    return n;
  });

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * An http(s) URL that is only an origin (no path beyond `/`, no query, fragment or credentials),
 * as `URL.origin`; or what is wrong with it.
 */
function checkOrigin(value: string): { origin: string } | { problem: string } {
  const url = parseUrl(value);
  if (!url) return { problem: 'is not a URL' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `is not http or https (${url.protocol.slice(0, -1)})` };
  }
  if (url.pathname !== '/') return { problem: `has a path (${url.pathname})` };
  if (url.search || url.hash) return { problem: 'has a query or a fragment' };
  if (url.username || url.password) return { problem: 'holds credentials' };
  return { origin: url.origin };
}

export const origin = (example: string) =>
  z.string().transform((value, ctx) => {
    const checked = checkOrigin(value);
    if ('problem' in checked) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" ${checked.problem}: expected an http(s) origin such as ${example}`,
      });
      return z.NEVER;
    }
    return checked.origin;
  });

export const host = z.string().refine(isListenHost, {
  error: (issue) =>
    `"${String(issue.input)}" is not an address to listen on (${LISTEN_HOST_FORMS})`,
});

export const folder = z.string().transform((value) => path.resolve(value));

// The token travels in an Authorization header: printable, no spaces. It is a secret, so a bad one
// is described, never echoed.
export const deployToken = z.string().refine((value) => /^[\x21-\x7e]{16,}$/.test(value), {
  error: (issue) =>
    `expected at least 16 printable characters without spaces (got ${String(issue.input).length} characters)`,
});

export const originList = z.string().transform((value, ctx) => {
  const out: string[] = [];
  for (const entry of value.split(',').map((o) => o.trim())) {
    if (!entry) continue;
    const checked = checkOrigin(entry);
    if ('problem' in checked) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" ${checked.problem}: expected comma-separated http(s) origins such as https://cdn.example.com`,
      });
      return z.NEVER;
    }
    if (!out.includes(checked.origin)) out.push(checked.origin);
  }
  return out;
});
