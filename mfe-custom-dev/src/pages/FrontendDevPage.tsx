import { Accordion, CounterGrid, Prose, Section, ServicePage, StatGrid } from '@site/shared';
import { frontendDevContent as c } from '../content/frontend-dev';
import { route } from '../routes';

export default function FrontendDevPage() {
  return (
    <ServicePage route={route('/services/custom-dev/frontend-dev')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.stats.heading} tone="dark">
        <StatGrid items={c.stats.items} />
      </Section>
      <Section heading={c.process.heading} intro={c.process.intro}>
        <CounterGrid items={c.process.counters} speed={2500} />
      </Section>
      <Section heading={c.services.heading} tone="muted">
        <Accordion items={c.services.items} />
      </Section>
      <Section heading={c.technology.heading}>
        <Accordion items={c.technology.items} />
      </Section>
    </ServicePage>
  );
}
