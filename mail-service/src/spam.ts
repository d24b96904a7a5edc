/**
 * Whether a message is spam, and why: each rule that matches gives a reason, stored with the
 * message so that an operator can see it (`npm run outbox -- spam`) and release a false positive.
 * Cheap rules only, no third-party service.
 */
import type { ContactMessage } from '@site/contracts/contact';
import type { Config } from './config';
import type { FormTokenCheck } from './form-token';

export type SpamRules = Pick<Config, 'formMinFillMs' | 'spamMaxLinks'>;

export const HONEYPOT_REASON = 'honeypot field filled';
export const INVALID_TOKEN_REASON = 'form token invalid';

// A link as spam carries them: a scheme or a www. host. Bare domains ("example.com") are how
// people name their company, so they do not count.
const LINK = /\b(?:https?:\/\/|www\.)/gi;

export const countLinks = (text: string): number => text.match(LINK)?.length ?? 0;

/** The reasons a message is spam; none when it is not. */
export function spamReasons(
  payload: ContactMessage,
  token: FormTokenCheck,
  rules: SpamRules,
): string[] {
  const reasons: string[] = [];
  if ((payload.website ?? '').trim() !== '') reasons.push(HONEYPOT_REASON);
  if (token.kind === 'invalid') reasons.push(INVALID_TOKEN_REASON);
  if (token.kind === 'valid' && token.ageMs < rules.formMinFillMs) {
    reasons.push(`submitted ${(token.ageMs / 1000).toFixed(1)} s after the form was first used`);
  }
  const links = countLinks(`${payload.message.subject}\n${payload.message.body}`);
  if (links > rules.spamMaxLinks) {
    reasons.push(`${links} links in the message (more than ${rules.spamMaxLinks})`);
  }
  return reasons;
}
