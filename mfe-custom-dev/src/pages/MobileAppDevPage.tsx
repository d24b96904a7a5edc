import { Accordion, LinkCards, Prose, Section, ServicePage, StatGrid } from '@site/shared';
import { mobileAppDevContent as c } from '../content/mobile-app-dev';
import { route } from '../routes';

export default function MobileAppDevPage() {
  return (
    <ServicePage route={route('/services/custom-dev/mobile-app-dev')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.stats.heading} tone="dark">
        <StatGrid items={c.stats.items} />
      </Section>
      <Section heading={c.services.heading}>
        <Accordion items={c.services.items} />
      </Section>
      <Section heading={c.platforms.heading} tone="muted">
        <Accordion items={c.platforms.items} />
      </Section>
      <Section heading={c.technologies.heading}>
        <Accordion items={c.technologies.items} />
      </Section>
      <Section heading={c.paths.heading} intro={c.paths.intro} tone="muted">
        <LinkCards items={c.paths.items} />
      </Section>
    </ServicePage>
  );
}
