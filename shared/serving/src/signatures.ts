/**
 * The one way the site and the mail-service sign what they hand out and check what comes back
 * (preview links, view and cohort cookies, the contact form's start token, a held message's
 * release link, an address in the erasure audit): HMAC-SHA-256, written in base64url, checked in
 * constant time. Each use signs its own purpose into the message (`preview\n…`) or uses a key made
 * for that purpose alone (`purposeKey`), so a signature made for one use is worth nothing in
 * another.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A key of its own for `purpose`, made from `secret`: one secret, one key per use. */
export const purposeKey = (secret: string | Buffer, purpose: string): Buffer =>
  createHmac('sha256', secret).update(purpose).digest();

/** The signature of `message` under `key`, base64url; `bytes` keeps its first bytes only. */
export function sign(key: string | Buffer, message: string, bytes = 32): string {
  return createHmac('sha256', key)
    .update(message)
    .digest()
    .subarray(0, bytes)
    .toString('base64url');
}

/**
 * Whether `given` is the signature of `message` under `key`, exactly as `sign` writes it. The
 * comparison takes the same time whatever `given` holds, its length included.
 */
export function isSignature(
  key: string | Buffer,
  message: string,
  given: string,
  bytes = 32,
): boolean {
  return sameText(given, sign(key, message, bytes));
}

/** Whether two texts are equal, compared in constant time (digests first: lengths leak nothing). */
export function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
