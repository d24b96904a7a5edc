import { Accordion, CheckList, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { crossPlatformContent as c } from '../content/cross-platform';
import { route } from '../routes';

export default function CrossPlatformPage() {
  return (
    <ServicePage
      route={route('/services/custom-dev/mobile-app-dev/cross-platform')}
      lead={c.lead}
      cta={c.cta}
    >
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.frameworks.heading} tone="muted">
        <Accordion items={c.frameworks.items} />
      </Section>
      <Section heading={c.benefits.heading}>
        <FeatureList items={c.benefits.items} columns={3} />
      </Section>
      <Section heading={c.native.heading} intro={c.native.intro} tone="muted">
        <CheckList items={c.native.items} columns={2} />
      </Section>
      <Section heading={c.hybrid.heading}>
        <Prose paragraphs={c.hybrid.paragraphs} />
      </Section>
    </ServicePage>
  );
}
