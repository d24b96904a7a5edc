/**
 * The shapes of page content. Pages keep their words in content files typed with these, and map
 * them onto the sections in `components/`.
 */

/** Paragraphs of running text. */
export type Paragraphs = readonly string[];

export interface LinkAction {
  to: string;
  label: string;
  /** Read after a short label by screen readers and search engines ("Learn More" about what). */
  context?: string;
}

export interface AccordionItemData {
  title: string;
  /** Paragraphs, or a list when `list` is given. */
  body: Paragraphs;
  list?: readonly string[];
}

export interface FeatureItem {
  title: string;
  text: string;
}

export interface LinkCardItem {
  to: string;
  title: string;
  text: string;
}

export interface StatItem {
  /** Shown as written, e.g. `80%` or `420+`. */
  value: string;
  label: string;
}

export interface CounterItem {
  target: number;
  label: string;
  /** Digits to pad to, e.g. 2 shows 1 as `01`. */
  pad?: number;
  suffix?: string;
}

export interface QuoteItem {
  quote: string;
  name: string;
  role: string;
}

export interface StepItem {
  number: string;
  title: string;
  text: string;
}

export interface CallToActionContent {
  heading: string;
  text: string;
  action: LinkAction;
}
