import { CheckList, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { dataScienceContent as c } from '../content/data-science';
import { route } from '../routes';

export default function DataSciencePage() {
  return (
    <ServicePage route={route('/services/data-analytics/data-science')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.useCases.heading} intro={c.useCases.intro} tone="muted">
        <FeatureList items={c.useCases.items} columns={3} />
      </Section>
      <Section heading={c.phases.heading} intro={c.phases.intro}>
        <FeatureList items={c.phases.items} columns={3} />
      </Section>
      <Section heading={c.tools.heading} tone="muted">
        <CheckList items={c.tools.items} columns={3} />
      </Section>
      <Section heading={c.responsible.heading}>
        <Prose paragraphs={c.responsible.paragraphs} />
      </Section>
    </ServicePage>
  );
}
