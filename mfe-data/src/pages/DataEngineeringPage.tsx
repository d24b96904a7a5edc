import { Accordion, Prose, Section, ServicePage } from '@site/shared';
import { dataEngineeringContent as c } from '../content/data-engineering';
import { route } from '../routes';

export default function DataEngineeringPage() {
  return (
    <ServicePage
      route={route('/services/data-analytics/data-engineering')}
      lead={c.lead}
      cta={c.cta}
    >
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.services.heading} tone="muted">
        <Accordion items={c.services.items} />
      </Section>
      <Section heading={c.benefits.heading}>
        <Accordion items={c.benefits.items} />
      </Section>
      <Section heading={c.reasons.heading} tone="muted">
        <Accordion items={c.reasons.items} />
      </Section>
    </ServicePage>
  );
}
