/**
 * Whether a message is held as spam, and why. Each signal that matches gives a reason and adds
 * its weight to a score; a message is held only when the score reaches HOLD_SCORE. A weak signal
 * (a fast sender, whom a browser's autofill makes look like a bot; a message with many links) never
 * holds a message alone, and a held message is never dropped: it waits, with its reasons, for sales
 * to see it in the daily digest and release it (src/delivery/digest.ts). The reasons are stored
 * with every message that has any, held or not. Cheap rules only, no third-party service.
 */
import type { ContactMessage } from '@site/contracts/contact';
import type { Config } from './config';
import type { FormTokenCheck } from './form-token';

export type SpamRules = Pick<Config, 'FORM_MIN_FILL_MS' | 'SPAM_MAX_LINKS'>;

export const HONEYPOT_REASON = 'honeypot field filled';
export const INVALID_TOKEN_REASON = 'form token invalid';

/** What a signal adds to the score: a strong one reaches HOLD_SCORE alone, a weak one never does. */
export const STRONG = 2;
export const WEAK = 1;
/** The score at which a message is held as spam instead of delivered. */
export const HOLD_SCORE = 2;

// A link as spam carries them: a scheme or a www. host. Bare domains ("example.com") are how
// people name their company, so they do not count.
const LINK = /\b(?:https?:\/\/|www\.)/gi;

export const countLinks = (text: string): number => text.match(LINK)?.length ?? 0;

export interface SpamJudgement {
  /** Every signal that matched, in words; empty when none did. */
  reasons: string[];
  score: number;
  /** Held as spam (not delivered until released) rather than delivered. */
  held: boolean;
}

/** The signals a message shows, their score, and whether it is held. */
export function judgeSpam(
  payload: ContactMessage,
  token: FormTokenCheck,
  rules: SpamRules,
): SpamJudgement {
  const signals: [string, number][] = [];
  // Hidden from people; a bot fills every field. (Some autofill does too: held, so still seen.)
  if ((payload.website ?? '').trim() !== '') signals.push([HONEYPOT_REASON, STRONG]);
  // Our form sends our token or none: anything else was made by someone else.
  if (token.kind === 'invalid') signals.push([INVALID_TOKEN_REASON, STRONG]);
  if (token.kind === 'valid' && token.ageMs < rules.FORM_MIN_FILL_MS) {
    const seconds = (token.ageMs / 1000).toFixed(1);
    signals.push([`submitted ${seconds} s after the form was first used`, WEAK]);
  }
  const links = countLinks(`${payload.message.subject}\n${payload.message.body}`);
  if (links > rules.SPAM_MAX_LINKS) {
    signals.push([`${links} links in the message (more than ${rules.SPAM_MAX_LINKS})`, WEAK]);
  }
  const score = signals.reduce((sum, [, weight]) => sum + weight, 0);
  return { reasons: signals.map(([reason]) => reason), score, held: score >= HOLD_SCORE };
}
