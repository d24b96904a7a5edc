import { CheckList, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { biProcessControlContent as c } from '../content/bi-process-control';
import { route } from '../routes';

export default function BiProcessControlPage() {
  return (
    <ServicePage
      route={route('/services/business-intelligence/bi-process-control')}
      lead={c.lead}
      cta={c.cta}
    >
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.capabilities.heading} tone="muted">
        <FeatureList items={c.capabilities.items} columns={3} />
      </Section>
      <Section heading={c.sectors.heading} intro={c.sectors.intro} tone="dark">
        <FeatureList items={c.sectors.items} columns={3} />
      </Section>
      <Section heading={c.sources.heading}>
        <CheckList items={c.sources.items} columns={3} />
      </Section>
      <Section heading={c.approach.heading} tone="muted">
        <Prose paragraphs={c.approach.paragraphs} />
      </Section>
    </ServicePage>
  );
}
