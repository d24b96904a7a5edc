import { Accordion, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { integrationContent as c } from '../content/integration';
import { route } from '../routes';

export default function IntegrationPage() {
  return (
    <ServicePage route={route('/services/custom-dev/integration')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.systems.heading} tone="muted">
        <FeatureList items={c.systems.items} columns={4} />
      </Section>
      <Section heading={c.patterns.heading} intro={c.patterns.intro}>
        <Accordion items={c.patterns.items} />
      </Section>
      <Section heading={c.howWeWork.heading} tone="muted">
        <Accordion items={c.howWeWork.items} />
      </Section>
    </ServicePage>
  );
}
