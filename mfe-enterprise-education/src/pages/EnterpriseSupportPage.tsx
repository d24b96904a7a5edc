import { Accordion, CheckList, Prose, Section, ServicePage, StatGrid } from '@site/shared';
import { enterpriseSupportContent as c } from '../content/enterprise-support';
import { route } from '../routes';

export default function EnterpriseSupportPage() {
  return (
    <ServicePage route={route('/services/enterprise/enterprise-support')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.terms.heading} intro={c.terms.intro} tone="dark">
        <StatGrid items={c.terms.stats} />
      </Section>
      <Section heading={c.benefits.heading} tone="muted">
        <Accordion items={c.benefits.items} />
      </Section>
      <Section heading={c.dedication.heading} intro={c.dedication.intro}>
        <Accordion items={c.dedication.items} />
      </Section>
      <Section heading={c.focus.heading} intro={c.focus.intro} tone="muted">
        <CheckList items={c.focus.items} columns={3} />
      </Section>
    </ServicePage>
  );
}
