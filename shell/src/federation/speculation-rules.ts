/**
 * A move to another owner's page is a page load (boundary.ts); the browser makes it quick by
 * fetching that page's HTML ahead (Speculation Rules, where the browser has them; elsewhere the
 * link is simply followed). The rules are one fixed text for every page, so a Content-Security-
 * Policy can allow this one inline script by its hash; which links they reach is said by marks the
 * shell puts on links (warming.ts), not by the text:
 *
 * - every link to another owner's page (`data-page-load`): fetched when the visitor shows intent
 *   (hover for a moment, or the press that starts a tap: "moderate");
 * - such a link the visitor is shown in the viewport once the page has loaded and gone idle, the
 *   first few of them (`data-page-load="warm"`): fetched at once, as a phone has no hover to give
 *   notice.
 *
 * Only the HTML is fetched: prefetching runs no code, and the page's own files come with the page
 * load (the shell's are in the cache already).
 */
export const PAGE_LOAD_ATTRIBUTE = 'data-page-load';

export const SPECULATION_RULES = JSON.stringify({
  prefetch: [
    {
      source: 'document',
      where: { selector_matches: `a[${PAGE_LOAD_ATTRIBUTE}]` },
      eagerness: 'moderate',
    },
    {
      source: 'document',
      where: { selector_matches: `a[${PAGE_LOAD_ATTRIBUTE}="warm"]` },
      eagerness: 'immediate',
    },
  ],
});

/** Whether this browser reads speculation rules. */
const supported = (): boolean =>
  typeof HTMLScriptElement !== 'undefined' &&
  typeof HTMLScriptElement.supports === 'function' &&
  HTMLScriptElement.supports('speculationrules');

let inserted = false;

/** Adds the rules to the document, once; a browser without them follows the links as they are. */
export function insertSpeculationRules(): void {
  if (inserted || !supported()) return;
  inserted = true;
  const script = document.createElement('script');
  script.type = 'speculationrules';
  script.textContent = SPECULATION_RULES;
  document.head.append(script);
}
