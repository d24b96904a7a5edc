import { company } from './company';

/** The size of every page's share card (the PNG a link preview shows). */
export const SHARE_CARD = { width: 1200, height: 630, type: 'image/png' } as const;

/**
 * The text alternative of a page's share card (`og:image:alt`, `twitter:image:alt`): what the
 * card shows, the page's title and the company's name, without naming the company twice.
 */
export const shareCardAlt = (title: string): string =>
  title.includes(company.name) ? title : `${title} — ${company.name}`;
