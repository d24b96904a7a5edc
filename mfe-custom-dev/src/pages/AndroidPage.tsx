import { CheckList, FeatureList, Prose, Section, ServicePage, StatGrid } from '@site/shared';
import { androidContent as c } from '../content/android';
import { route } from '../routes';

export default function AndroidPage() {
  return (
    <ServicePage
      route={route('/services/custom-dev/mobile-app-dev/android')}
      lead={c.lead}
      cta={c.cta}
    >
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.stats.heading} intro={c.stats.intro} tone="dark">
        <StatGrid items={c.stats.items} />
      </Section>
      <Section heading={c.platforms.heading}>
        <FeatureList items={c.platforms.items} columns={3} />
      </Section>
      <Section heading={c.languages.heading} tone="muted">
        <FeatureList items={c.languages.items} columns={3} />
      </Section>
      <Section heading={c.builds.heading}>
        <CheckList items={c.builds.items} columns={3} />
      </Section>
      <Section heading={c.delivery.heading} tone="muted">
        <Prose paragraphs={c.delivery.paragraphs} />
      </Section>
    </ServicePage>
  );
}
