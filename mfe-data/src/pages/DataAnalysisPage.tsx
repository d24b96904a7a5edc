import { CheckList, FeatureList, LinkCards, Prose, Section, ServicePage } from '@site/shared';
import { dataAnalysisContent as c } from '../content/data-analysis';
import { route } from '../routes';

export default function DataAnalysisPage() {
  return (
    <ServicePage route={route('/services/data-analytics/data-analysis')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.services.heading} tone="muted">
        <FeatureList items={c.services.items} columns={3} />
      </Section>
      <Section heading={c.questions.heading}>
        <CheckList items={c.questions.items} columns={2} />
      </Section>
      <Section heading={c.method.heading} tone="muted">
        <Prose paragraphs={c.method.paragraphs} />
      </Section>
      <Section heading={c.related.heading}>
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
