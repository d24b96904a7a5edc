/**
 * How an erasure or export request's address is matched against stored messages: without regard
 * to case, and with an internationalised domain in either form (münchen.de, xn--mnchen-3ya.de).
 */
import { asciiDomain } from '@site/contracts/contact';

/** The form two addresses are compared in: lower case, the domain in ASCII. */
export function normalizeAddress(email: string): string {
  const value = email.trim();
  const at = value.lastIndexOf('@');
  if (at < 0) return value.toLowerCase();
  const local = value.slice(0, at).toLowerCase();
  const domain = value.slice(at + 1).toLowerCase();
  return `${local}@${asciiDomain(domain) ?? domain}`;
}
