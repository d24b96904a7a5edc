import { Accordion, ButtonLink, Prose, Section, ServicePage } from '@site/shared';
import { bigDataContent as c } from '../content/big-data';
import { route } from '../routes';

export default function BigDataPage() {
  return (
    <ServicePage route={route('/services/data-analytics/big-data')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.services.heading} tone="muted">
        <Accordion items={c.services.items} />
      </Section>
      <Section heading={c.capabilities.heading} intro={c.capabilities.intro}>
        <Accordion items={c.capabilities.items} />
      </Section>
      <Section heading={c.engineering.heading} intro={c.engineering.intro} tone="dark">
        <ButtonLink to={c.engineering.action.to} context={c.engineering.action.context}>
          {c.engineering.action.label}
        </ButtonLink>
      </Section>
    </ServicePage>
  );
}
