import { SHARE_CARD, company, shareCardAlt } from '@site/ui';
import { documentTitle, type PageMeta } from '../content/shell-routes';
import { organizationJsonLd } from './structured-data';

export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Pages whose head carries the organisation's structured data. */
const WITH_ORGANIZATION = new Set(['/', '/contact']);

/**
 * The page's head tags from its route-table entry: title, description, canonical link, robots
 * directive, Open Graph and Twitter tags, and JSON-LD where the page describes the company.
 */
export function renderHead(meta: PageMeta, siteUrl: string, image?: string): string {
  const alt = shareCardAlt(meta.title);
  const title = documentTitle(meta);
  const canonical = meta.noindex ? '' : `${siteUrl}${meta.path === '/' ? '/' : meta.path}`;
  const tag = (html: string | false) => (html ? [html] : []);
  return [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    ...tag(canonical !== '' && `<link rel="canonical" href="${escapeHtml(canonical)}" />`),
    ...tag(meta.noindex === true && `<meta name="robots" content="noindex" />`),
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(company.name)}" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    ...tag(canonical !== '' && `<meta property="og:url" content="${escapeHtml(canonical)}" />`),
    ...(image
      ? [
          `<meta property="og:image" content="${escapeHtml(image)}" />`,
          `<meta property="og:image:type" content="${SHARE_CARD.type}" />`,
          `<meta property="og:image:width" content="${SHARE_CARD.width}" />`,
          `<meta property="og:image:height" content="${SHARE_CARD.height}" />`,
          `<meta property="og:image:alt" content="${escapeHtml(alt)}" />`,
          `<meta name="twitter:card" content="summary_large_image" />`,
          `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
          `<meta name="twitter:image:alt" content="${escapeHtml(alt)}" />`,
        ]
      : [`<meta name="twitter:card" content="summary" />`]),
    ...tag(
      WITH_ORGANIZATION.has(meta.path) &&
        `<script type="application/ld+json">${organizationJsonLd(siteUrl)}</script>`,
    ),
  ].join('\n    ');
}
