import { Accordion, FeatureList, Prose, Section, ServicePage } from '@site/shared';
import { cloudAppDevContent as c } from '../content/cloud-app-dev';
import { route } from '../routes';

export default function CloudAppDevPage() {
  return (
    <ServicePage route={route('/services/custom-dev/cloud-app-dev')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.models.heading} intro={c.models.intro} tone="muted">
        <Accordion items={c.models.items} />
      </Section>
      <Section heading={c.platforms.heading} intro={c.platforms.intro}>
        <FeatureList items={c.platforms.items} columns={3} />
      </Section>
      <Section heading={c.services.heading} tone="muted">
        <Accordion items={c.services.items} />
      </Section>
    </ServicePage>
  );
}
