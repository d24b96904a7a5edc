import { CheckList, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { biContent as c } from '../content/bi';
import { route } from '../routes';

export default function BiPage() {
  return (
    <ServicePage route={route('/services/business-intelligence/bi')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.deliverables.heading} intro={c.deliverables.intro} tone="muted">
        <FeatureList items={c.deliverables.items} columns={3} />
      </Section>
      <Section heading={c.tools.heading} intro={c.tools.intro}>
        <CheckList items={c.tools.items} columns={3} />
      </Section>
      <Section heading={c.engagement.heading} intro={c.engagement.intro} tone="muted">
        <FeatureList items={c.engagement.items} columns={4} />
      </Section>
    </ServicePage>
  );
}
