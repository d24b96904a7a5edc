import {
  CheckList,
  FeatureList,
  LinkCards,
  Prose,
  QuoteGrid,
  Section,
  ServicePage,
} from '@site/shared';
import { lmsContent as c } from '../content/lms';
import { route } from '../routes';

export default function LmsPage() {
  return (
    <ServicePage route={route('/services/education/lms')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.audiences.heading} tone="dark">
        <FeatureList items={c.audiences.items} columns={3} />
      </Section>
      <Section heading={c.features.heading} intro={c.features.intro}>
        <FeatureList items={c.features.items} columns={3} />
      </Section>
      <Section heading={c.voices.heading} intro={c.voices.intro} tone="muted">
        <div className="split">
          <QuoteGrid items={c.voices.items} />
          <div className="side-list">
            <h3>{c.voices.listHeading}</h3>
            <CheckList items={c.voices.list} />
          </div>
        </div>
      </Section>
      <Section heading={c.delivery.heading}>
        <Prose paragraphs={c.delivery.paragraphs} />
      </Section>
      <Section heading={c.related.heading} tone="muted">
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
