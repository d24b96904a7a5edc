/**
 * What a page lets the browser do, computed in one place (`policyFor`) for every page answer: the
 * Content-Security-Policy and the headers around it. A team's code is trusted on its own group's
 * pages and nowhere else, so a page may run scripts from the site and from the one group whose page
 * it is, and connect to those origins alone:
 *
 * - a group's page: the site and that group's origin;
 * - a shell page (home, about, 404, ...): the site alone (entering a group is a page load, so a
 *   shell document never runs a group's code: shell/src/federation/boundary.ts);
 * - the contact page: the site alone.
 *
 * No page is framed, and no page that opens another can reach into it: every page is in a
 * browsing-context group of its own when it is opened, whoever opens it. The contact page has COOP
 * `same-origin` (every browser severs a same-origin opener whose policy differs); every other page
 * `noopener-allow-popups`, which severs even an opener of the same origin and policy (a group's
 * page opening another owner's page with `window.open`). Browsers without that value (Firefox and
 * Safari today) read it as `unsafe-none`: there a page opened by another site keeps its opener.
 *
 * The site's inline scripts (pages/compose.ts's loader, and the fixed speculation rules the shell adds
 * to prefetch other owners' pages) are allowed by their hashes: composed pages are cached for every
 * visitor, so a nonce per answer would not fit; 'inline-speculation-rules' would let a group's code
 * add rules of its own. JSON data elements never run.
 * Styles, images and fonts are not limited (no default-src): the map's tiles and the inlined
 * style sheet need nothing more. Violations are reported to REPORT_PATH (report-uri, sent at once
 * by every browser that enforces the policy) and counted per group (http/policy-reports.ts).
 */
import { createHash } from 'node:crypto';
import { SPECULATION_RULES } from '../../src/federation/speculation-rules';
import { LOADER_SCRIPT } from './compose';

/** Where browsers post the policy's violation reports. */
export const REPORT_PATH = '/_csp';

export type PageOwner =
  /** A group's page: its code runs here, and only its. */
  | { kind: 'group'; origin: string }
  /** A shell page: no group's code. */
  | { kind: 'shell' }
  /** The contact page: no group's code, ever. */
  | { kind: 'contact' };

const hashOf = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export const LOADER_HASH = hashOf(LOADER_SCRIPT);
/** The one set of speculation rules the shell's code inserts (speculation-rules.ts). */
export const SPECULATION_HASH = hashOf(SPECULATION_RULES);

/** An origin as a CSP source: only `scheme://host[:port]` goes in, nothing that could end a list. */
function sourceOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * The headers for each owner already seen, made once: every page answer needs them. One entry per
 * group origin the site has had; past MADE_MAX (origins that came and went) it starts again.
 */
const made = new Map<string, Readonly<Record<string, string>>>();
const MADE_MAX = 1024;

/** The headers of a page answer whose page belongs to `owner`. */
export function policyFor(owner: PageOwner): Readonly<Record<string, string>> {
  const key = owner.kind === 'group' ? `group ${owner.origin}` : owner.kind;
  let headers = made.get(key);
  if (!headers) {
    headers = Object.freeze(headersFor(owner));
    if (made.size >= MADE_MAX) made.clear();
    made.set(key, headers);
  }
  return headers;
}

function headersFor(owner: PageOwner): Record<string, string> {
  const origins = owner.kind === 'group' ? [owner.origin] : [];
  const sources = [...new Set(origins.map(sourceOf).filter((s): s is string => s !== null))];
  const contact = owner.kind === 'contact';
  const directives = [
    `script-src 'self' ${[...sources, LOADER_HASH, SPECULATION_HASH].join(' ')}`,
    `connect-src ${["'self'", ...sources].join(' ')}`,
    // Workers and service workers would outlive a page's group: none.
    "worker-src 'none'",
    // No page of the site frames another: a frame of another owner's page would be its to script.
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
    "form-action 'self'",
    `report-uri ${REPORT_PATH}`,
  ];
  return {
    'content-security-policy': directives.join('; '),
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': contact ? 'same-origin' : 'noopener-allow-popups',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}
