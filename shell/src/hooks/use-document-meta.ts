import { useEffect } from 'react';
import { documentTitle, type PageMeta } from '../content/shell-routes';

function setMeta(selector: string, create: () => HTMLElement, attr: string, value: string | null) {
  let el = document.head.querySelector<HTMLElement>(selector);
  if (value === null) {
    el?.remove();
    return;
  }
  if (!el) {
    el = create();
    document.head.appendChild(el);
  }
  el.setAttribute(attr, value);
}

const metaTag = (key: 'name' | 'property', name: string) => () => {
  const el = document.createElement('meta');
  el.setAttribute(key, name);
  return el;
};

/**
 * Keeps the document title, description, canonical link, Open Graph tags and robots directive in
 * step with the page. It edits the tags the server-rendered HTML already has rather than adding more.
 */
export function useDocumentMeta(meta: PageMeta): void {
  useEffect(() => {
    const title = documentTitle(meta);
    const url = meta.noindex ? null : new URL(meta.path, window.location.origin).href;
    document.title = title;
    setMeta(
      'meta[name="description"]',
      metaTag('name', 'description'),
      'content',
      meta.description,
    );
    setMeta('meta[property="og:title"]', metaTag('property', 'og:title'), 'content', title);
    setMeta(
      'meta[property="og:description"]',
      metaTag('property', 'og:description'),
      'content',
      meta.description,
    );
    setMeta('meta[property="og:url"]', metaTag('property', 'og:url'), 'content', url);
    setMeta(
      'meta[name="robots"]',
      metaTag('name', 'robots'),
      'content',
      meta.noindex ? 'noindex' : null,
    );
    setMeta(
      'link[rel="canonical"]',
      () => {
        const link = document.createElement('link');
        link.rel = 'canonical';
        return link;
      },
      'href',
      url,
    );
  }, [meta]);
}
