import { useId, type ReactNode } from 'react';
import type { Paragraphs } from '../content-types';
import { Prose } from './Prose';

export interface SectionProps {
  heading: string;
  id?: string;
  eyebrow?: string;
  intro?: Paragraphs;
  tone?: 'plain' | 'muted' | 'dark';
  children?: ReactNode;
  /** Fade the section in as it scrolls into view (never under reduced motion). */
  animate?: boolean;
}

/** A titled band of the page: an `h2`, optional intro paragraphs and whatever it holds. */
export function Section({
  heading,
  id,
  eyebrow,
  intro,
  tone = 'plain',
  children,
  animate = true,
}: SectionProps) {
  const headingId = useId();
  return (
    <section id={id} className={`section section--${tone}`} aria-labelledby={headingId}>
      <div className="container" data-aos={animate ? 'fade-up' : undefined}>
        {eyebrow && <p className="section__eyebrow">{eyebrow}</p>}
        <h2 className="section__heading" id={headingId}>
          {heading}
        </h2>
        {intro && intro.length > 0 && <Prose paragraphs={intro} className="section__intro" />}
        {children}
      </div>
    </section>
  );
}
