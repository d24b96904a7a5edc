import type { ComponentType } from 'react';

/**
 * The shapes of page content. Pages keep their words and sections in content files typed with these;
 * `SectionList` draws the sections with the components in `components/`.
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

export interface SkillItem {
  label: string;
  /** Percent, 0 to 100. */
  value: number;
}

/**
 * What a band of a page holds, drawn by `SectionList` with the component of the same name: `prose`
 * with `Prose`, `features` with `FeatureList`, and so on. `split` sets two blocks side by side.
 */
export type SectionBlock =
  | { kind: 'prose'; paragraphs: Paragraphs }
  | { kind: 'features'; items: readonly FeatureItem[]; columns?: 2 | 3 | 4 }
  | { kind: 'checks'; items: readonly string[]; columns?: 1 | 2 | 3 }
  | { kind: 'accordion'; items: readonly AccordionItemData[] }
  | { kind: 'stats'; items: readonly StatItem[] }
  | { kind: 'counters'; items: readonly CounterItem[]; speed?: number }
  | { kind: 'skills'; items: readonly SkillItem[] }
  /** The company's approach, or the steps given. */
  | { kind: 'steps'; steps?: readonly StepItem[] }
  | { kind: 'links'; items: readonly LinkCardItem[] }
  | { kind: 'quotes'; items: readonly QuoteItem[] }
  | { kind: 'action'; action: LinkAction }
  /** A short titled check list beside the main block. */
  | { kind: 'side-list'; heading: string; items: readonly string[] }
  /** Blocks one under the other, as one side of a `split`. */
  | { kind: 'stack'; blocks: readonly SectionBlock[] }
  | { kind: 'split'; start: SectionBlock; end: SectionBlock };

/** A titled band of a page: its heading, intro paragraphs and tone, and what it holds. */
export type SectionContent = SectionBlock & {
  heading: string;
  intro?: Paragraphs;
  tone?: 'plain' | 'muted' | 'dark';
  /** False for a band seen on arrival, which must not fade in. */
  animate?: false;
};

/**
 * A service page as data: the sentence under its title, its picture, its sections in order, its
 * closing.
 */
export interface ServicePageContent {
  lead: string;
  /**
   * The page's own picture in its hero, drawn for this page (decoration: hidden from assistive
   * technology). Imported by the content file, so it travels in the page's own chunk.
   */
  art?: ComponentType;
  /** The first band, under the hero: what the service is, and the figures that back it. */
  intro: { heading: string; paragraphs: Paragraphs; figures?: readonly StatItem[] };
  sections: readonly SectionContent[];
  /** On a group's overview page, the words over the cards that lead to the group's pages. */
  pages?: { heading: string; intro?: Paragraphs };
  cta?: Partial<CallToActionContent>;
}
