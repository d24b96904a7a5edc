import {
  Accordion,
  CheckList,
  FeatureList,
  LinkCards,
  Prose,
  Section,
  ServicePage,
} from '@site/shared';
import { mandeSolutionsContent as c } from '../content/mande-solutions';
import { route } from '../routes';

export default function MandESolutionsPage() {
  return (
    <ServicePage route={route('/public-health/MandE-solutions')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.capabilities.heading} intro={c.capabilities.intro} tone="muted">
        <FeatureList items={c.capabilities.items} columns={3} />
      </Section>
      <Section heading={c.aggregation.heading} tone="dark">
        <div className="split">
          <Prose paragraphs={c.aggregation.paragraphs} />
          <CheckList items={c.aggregation.levels} />
        </div>
      </Section>
      <Section heading={c.audience.heading}>
        <FeatureList items={c.audience.items} columns={3} />
      </Section>
      <Section heading={c.setup.heading} tone="muted">
        <Accordion items={c.setup.items} />
      </Section>
      <Section heading={c.related.heading}>
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
