/**
 * What the site signs for a visitor while canaries run, so that what a browser sends back can be
 * believed: its cohort (the cookie that says which versions it sees) and a view token for each page
 * it is served, naming the group, version and cohort of that view. A browser's error report moves
 * a canary only with a view token; each token counts once. Both are HMAC-SHA-256 with a key every
 * replica shares (derived from the preview secret, itself the operator's or derived from
 * DEPLOY_TOKEN; a server without the deploy API makes one of its own at start).
 *
 * The token travels in a cookie scoped to `/_beacon` (HttpOnly, SameSite=Strict): the page's HTML
 * stays the same for every visitor (and cached once), no script can read the token, and the
 * browser's `sendBeacon` carries it to the one path that reads it.
 *
 * The same key signs the contact page's token (contact/no-script-form.ts): given to the contact page's
 * document alone, required by `/api/sendmail` (contact/api-proxy.ts).
 */
import { randomBytes } from 'node:crypto';
import { isSignature, purposeKey, sign } from '@site/serving/signatures';
import { parse as parseCookie } from 'cookie';

export const VIEW_COOKIE = 'site_view';
/** How long a view's token counts: a page open longer reports nothing that moves a canary. */
export const VIEW_SECONDS = 30 * 60;

/** How long the contact page's token is taken: a form left open longer is loaded afresh. */
export const CONTACT_TOKEN_SECONDS = 12 * 60 * 60;

export interface ViewClaims {
  group: string;
  version: string;
  cohort: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  nonce: string;
}

/** The key for views and cohorts, from the preview secret, or a new one for a lone server. */
export const viewKeyOf = (previewSecret: string | undefined): Buffer =>
  previewSecret ? purposeKey(previewSecret, 'site views and cohorts') : randomBytes(32);

export class ViewSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  private mac(kind: string, payload: string, bytes: number): string {
    return sign(this.key, `${kind}\n${payload}`, bytes);
  }

  private check(kind: string, payload: string, mac: string, bytes: number): boolean {
    return isSignature(this.key, `${kind}\n${payload}`, mac, bytes);
  }

  /** The cohort cookie's value: `<cohort>.<mac>`. */
  cohortValue(cohort: number): string {
    return `${cohort}.${this.mac('cohort', String(cohort), 12)}`;
  }

  /** The cohort of a cookie value this site signed; null for anything else. */
  cohortOf(value: string | undefined): number | null {
    if (value === undefined || value.length > 40) return null;
    const match = /^(\d{1,2})\.([\w-]+)$/.exec(value);
    if (!match || !this.check('cohort', match[1]!, match[2]!, 12)) return null;
    return Number(match[1]);
  }

  sign(group: string, version: string, cohort: number): { token: string; claims: ViewClaims } {
    const claims: ViewClaims = {
      group,
      version,
      cohort,
      expiresAt: this.now() + VIEW_SECONDS * 1000,
      nonce: randomBytes(12).toString('base64url'),
    };
    const payload = Buffer.from(
      JSON.stringify([group, version, cohort, claims.expiresAt, claims.nonce]),
    ).toString('base64url');
    return { token: `${payload}.${this.mac('view', payload, 16)}`, claims };
  }

  /** A token for one contact page's document: `<expiresAt>.<nonce>.<mac>`. */
  contactToken(): string {
    const payload = `${this.now() + CONTACT_TOKEN_SECONDS * 1000}.${randomBytes(12).toString('base64url')}`;
    return `${payload}.${this.mac('contact', payload, 16)}`;
  }

  /** Whether a contact page's token is one this site signed and has not expired. */
  contactTokenValid(token: string | undefined): boolean {
    if (!token || token.length > 100) return false;
    const match = /^(\d{1,15})\.([\w-]{16})\.([\w-]+)$/.exec(token);
    if (!match || !this.check('contact', `${match[1]}.${match[2]}`, match[3]!, 16)) return false;
    return Number(match[1]) > this.now();
  }

  /** The claims of a token this site signed that has not expired; null for anything else. */
  verify(token: string | undefined): ViewClaims | null {
    if (!token || token.length > 600) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    if (!this.check('view', payload, token.slice(dot + 1), 16)) return null;
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!Array.isArray(parts) || parts.length !== 5) return null;
    const [group, version, cohort, expiresAt, nonce] = parts as unknown[];
    if (
      typeof group !== 'string' ||
      typeof version !== 'string' ||
      typeof cohort !== 'number' ||
      typeof expiresAt !== 'number' ||
      typeof nonce !== 'string'
    ) {
      return null;
    }
    if (expiresAt <= this.now()) return null;
    return { group, version, cohort, expiresAt, nonce };
  }

  /** The view token in a request's cookies, verified. */
  fromCookie(header: string | undefined): ViewClaims | null {
    if (!header) return null;
    try {
      return this.verify(parseCookie(header)[VIEW_COOKIE]);
    } catch {
      return null;
    }
  }
}
