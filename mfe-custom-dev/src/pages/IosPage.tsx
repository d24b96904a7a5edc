import { CheckList, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { iosContent as c } from '../content/ios';
import { route } from '../routes';

export default function IosPage() {
  return (
    <ServicePage route={route('/services/custom-dev/mobile-app-dev/ios')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.platforms.heading} intro={c.platforms.intro} tone="muted">
        <FeatureList items={c.platforms.items} columns={3} />
      </Section>
      <Section heading={c.languages.heading}>
        <FeatureList items={c.languages.items} columns={3} />
      </Section>
      <Section heading={c.builds.heading} intro={c.builds.intro} tone="muted">
        <CheckList items={c.builds.items} columns={3} />
      </Section>
      <Section heading={c.delivery.heading}>
        <Prose paragraphs={c.delivery.paragraphs} />
      </Section>
    </ServicePage>
  );
}
