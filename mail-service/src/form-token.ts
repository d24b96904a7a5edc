/**
 * The time trap's form token: the server's signed timestamp, fetched by the page when the form is
 * first used (GET /api/form-token) and sent back with the message. Signed, so it works with cached
 * HTML and on any instance that shares the secret; a bot cannot make an older one.
 */
import { isSignature, sign } from '@site/serving/signatures';
import type { ServerSecret } from './secret';

/** The payload's top-level field that carries the token (the contact form sends it). */
export const FORM_STARTED_TOKEN_FIELD = 'formStartedToken';
/** The longest token accepted in the payload; longer is a 400. */
export const FORM_TOKEN_MAX_LENGTH = 200;
/** A token older than this says nothing any more (a tab left open overnight): it is ignored. */
export const FORM_TOKEN_MAX_AGE_MS = 24 * 3_600_000;

export type FormTokenCheck =
  /** No token: a form without JavaScript, or a message posted server-to-server. */
  { kind: 'absent' } | { kind: 'invalid' } | { kind: 'expired' } | { kind: 'valid'; ageMs: number };

/** What a token signs: the time the form started. */
const message = (stamp: string) => `form-started\n${stamp}`;

export class FormTokens {
  constructor(
    private readonly secret: ServerSecret,
    private readonly now: () => number,
  ) {}

  /** A token holding the time now: `<ms since the epoch, base 36>.<HMAC-SHA256, base64url>`. */
  async issue(): Promise<string> {
    const stamp = this.now().toString(36);
    return `${stamp}.${sign(await this.secret.key('form-token'), message(stamp))}`;
  }

  /** How old a token is, if it is one of ours. */
  async check(token: string | undefined): Promise<FormTokenCheck> {
    if (token === undefined || token === '') return { kind: 'absent' };
    const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return { kind: 'invalid' };
    const [, stamp = '', mac = ''] = match;
    if (!isSignature(await this.secret.key('form-token'), message(stamp), mac))
      return { kind: 'invalid' };
    // Instances' clocks differ by milliseconds (NTP): a token from a little ahead counts as new.
    const ageMs = Math.max(0, this.now() - parseInt(stamp, 36));
    return ageMs > FORM_TOKEN_MAX_AGE_MS ? { kind: 'expired' } : { kind: 'valid', ageMs };
  }
}
