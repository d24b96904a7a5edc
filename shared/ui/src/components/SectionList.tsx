import type { ReactNode } from 'react';
import type { SectionBlock, SectionContent } from '../content-types';
import { Accordion } from './Accordion';
import { ApproachSteps } from './ApproachSteps';
import { ButtonLink } from './ButtonLink';
import { CounterGrid } from './CounterGrid';
import { CheckList, FeatureList } from './FeatureList';
import { LinkCards } from './LinkCards';
import { Prose } from './Prose';
import { QuoteGrid } from './QuoteGrid';
import { Section } from './Section';
import { SkillBars } from './SkillBar';
import { StatGrid } from './StatGrid';

/**
 * One block as its component. A function, not a component of its own, so the rendered tree (and
 * with it every `useId` inside) is the one a page writing these components by hand would have.
 */
function block(b: SectionBlock, key?: number): ReactNode {
  switch (b.kind) {
    case 'prose':
      return <Prose key={key} paragraphs={b.paragraphs} />;
    case 'features':
      return <FeatureList key={key} items={b.items} columns={b.columns} />;
    case 'checks':
      return <CheckList key={key} items={b.items} columns={b.columns} />;
    case 'accordion':
      return <Accordion key={key} items={b.items} />;
    case 'stats':
      return <StatGrid key={key} items={b.items} />;
    case 'counters':
      return <CounterGrid key={key} items={b.items} speed={b.speed} />;
    case 'skills':
      return <SkillBars key={key} items={b.items} />;
    case 'steps':
      return <ApproachSteps key={key} steps={b.steps} />;
    case 'links':
      return <LinkCards key={key} items={b.items} />;
    case 'quotes':
      return <QuoteGrid key={key} items={b.items} />;
    case 'action':
      return (
        <ButtonLink key={key} to={b.action.to} context={b.action.context}>
          {b.action.label}
        </ButtonLink>
      );
    case 'side-list':
      return (
        // A list beside the main block is reference: folded under its heading on a phone (a tap
        // opens it, find-in-page too), open with a plain heading on wider screens; CSS alone
        // switches the two, so nothing moves when the script starts.
        <details key={key} className="side-list fold">
          <summary className="fold__summary">{b.heading}</summary>
          <h3 className="fold__heading">{b.heading}</h3>
          <CheckList items={b.items} />
        </details>
      );
    case 'stack':
      return <div key={key}>{b.blocks.map(block)}</div>;
    case 'split':
      return (
        <div key={key} className="split">
          {block(b.start, 0)}
          {block(b.end, 1)}
        </div>
      );
  }
}

/** A page's sections, in order, each a `Section` holding its block. */
export function SectionList({ sections }: { sections: readonly SectionContent[] }) {
  return sections.map((s) => (
    <Section key={s.heading} heading={s.heading} intro={s.intro} tone={s.tone} animate={s.animate}>
      {block(s)}
    </Section>
  ));
}
