import { Accordion, LinkCards, Prose, Section, ServicePage } from '@site/shared';
import { webAppDevContent as c } from '../content/web-app-dev';
import { route } from '../routes';

export default function WebAppDevPage() {
  return (
    <ServicePage route={route('/services/custom-dev/web-app-dev')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.disciplines.heading} intro={c.disciplines.intro} tone="muted">
        <LinkCards items={c.disciplines.items} />
      </Section>
      <Section heading={c.kinds.heading}>
        <Accordion items={c.kinds.items} />
      </Section>
      <Section heading={c.engagement.heading} intro={c.engagement.intro} tone="muted">
        <Accordion items={c.engagement.items} />
      </Section>
    </ServicePage>
  );
}
