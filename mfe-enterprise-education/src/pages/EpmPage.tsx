import { FeatureList, LinkCards, Prose, Section, ServicePage } from '@site/shared';
import { epmContent as c } from '../content/epm';
import { route } from '../routes';

export default function EpmPage() {
  return (
    <ServicePage route={route('/services/enterprise/epm')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.platforms.heading} intro={c.platforms.intro} tone="muted">
        <FeatureList items={c.platforms.items} columns={3} />
      </Section>
      <Section heading={c.estates.heading}>
        <Prose paragraphs={c.estates.paragraphs} />
      </Section>
      <Section heading={c.capabilities.heading} tone="muted">
        <FeatureList items={c.capabilities.items} columns={3} />
      </Section>
      <Section heading={c.approach.heading} tone="dark">
        <Prose paragraphs={c.approach.paragraphs} />
      </Section>
      <Section heading={c.related.heading} tone="muted">
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
