import { Accordion, CounterGrid, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { backendDevContent as c } from '../content/backend-dev';
import { route } from '../routes';

export default function BackendDevPage() {
  return (
    <ServicePage route={route('/services/custom-dev/backend-dev')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.stages.heading} intro={c.stages.intro} tone="muted">
        <CounterGrid items={c.stages.counters} speed={2500} />
      </Section>
      <Section heading={c.services.heading}>
        <Accordion items={c.services.items} />
      </Section>
      <Section heading={c.technology.heading} tone="muted">
        <Accordion items={c.technology.items} />
      </Section>
      <Section heading={c.principles.heading}>
        <FeatureList items={c.principles.items} columns={3} />
      </Section>
    </ServicePage>
  );
}
