/**
 * The contact page's own token: the site puts it into the contact page's document when a browser
 * loads that page into a tab (never into a page a script fetches, a frame or a prefetch), and
 * `/api/sendmail` takes a message only with it. Code on any other page, which cannot read the
 * contact page's document, cannot send a message as the visitor.
 */
export const CONTACT_TOKEN_ELEMENT = 'site-contact-token';
export const CONTACT_TOKEN_HEADER = 'X-Contact-Token';

/** The token this document was given, or null (a page entered without loading it). */
export function contactToken(): string | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(CONTACT_TOKEN_ELEMENT)?.textContent;
  if (!text) return null;
  try {
    const token: unknown = JSON.parse(text);
    return typeof token === 'string' && token.length <= 200 ? token : null;
  } catch {
    return null;
  }
}

/**
 * Whether this document was loaded as another page and moved to the contact page in place: it
 * holds no contact token then, and the contact page is loaded afresh to get one.
 */
export function enteredInPlace(): boolean {
  if (typeof performance?.getEntriesByType !== 'function' || typeof location === 'undefined') {
    return false;
  }
  const [entry] = performance.getEntriesByType('navigation');
  if (!entry) return false;
  return new URL(entry.name).pathname !== location.pathname;
}
