import { CheckList, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { mandeToolsContent as c } from '../content/mande-tools';
import { route } from '../routes';

export default function MandEToolsPage() {
  return (
    <ServicePage route={route('/public-health/MandE-tools')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.reasons.heading} intro={c.reasons.intro} tone="muted">
        <FeatureList items={c.reasons.items} columns={3} />
      </Section>
      <Section heading={c.tools.heading} intro={c.tools.intro}>
        <CheckList items={c.tools.items} columns={3} />
      </Section>
      <Section heading={c.howWeWork.heading} tone="muted">
        <Prose paragraphs={c.howWeWork.paragraphs} />
      </Section>
    </ServicePage>
  );
}
