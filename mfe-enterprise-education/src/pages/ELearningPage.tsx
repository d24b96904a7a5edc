import { CheckList, FeatureList, LinkCards, Prose, Section, ServicePage } from '@site/shared';
import { eLearningContent as c } from '../content/e-learning';
import { route } from '../routes';

export default function ELearningPage() {
  return (
    <ServicePage route={route('/services/education/e-learning')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.features.heading} intro={c.features.intro} tone="muted">
        <FeatureList items={c.features.items} columns={3} />
      </Section>
      <Section heading={c.conversion.heading} tone="dark">
        <div className="split">
          <Prose paragraphs={c.conversion.paragraphs} />
          <div>
            <Prose paragraphs={c.conversion.sourcesIntro} />
            <CheckList items={c.conversion.sources} columns={1} />
          </div>
        </div>
      </Section>
      <Section heading={c.related.heading}>
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
