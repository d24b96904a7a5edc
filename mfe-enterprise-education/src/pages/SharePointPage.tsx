import { Accordion, LinkCards, Prose, Section, ServicePage, StatGrid } from '@site/shared';
import { sharePointContent as c } from '../content/sharepoint';
import { route } from '../routes';

export default function SharePointPage() {
  return (
    <ServicePage route={route('/services/enterprise/sharepoint')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.experience.heading} tone="dark">
        <div className="split">
          <Prose paragraphs={c.experience.paragraphs} />
          <StatGrid items={c.experience.stats} />
        </div>
      </Section>
      <Section heading={c.services.heading} intro={c.services.intro} tone="muted">
        <Accordion items={c.services.items} />
      </Section>
      <Section heading={c.engagement.heading}>
        <Accordion items={c.engagement.items} />
      </Section>
      <Section heading={c.related.heading} tone="muted">
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
