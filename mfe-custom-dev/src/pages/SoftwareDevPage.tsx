import { ApproachSteps, FeatureList, LinkCards, Prose, Section, ServicePage } from '@site/shared';
import { softwareDevContent as c } from '../content/software-dev';
import { route } from '../routes';

export default function SoftwareDevPage() {
  return (
    <ServicePage route={route('/services/custom-dev/software-dev')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.areas.heading} intro={c.areas.intro} tone="muted">
        <LinkCards items={c.areas.items} />
      </Section>
      <Section heading={c.outcomes.heading}>
        <FeatureList items={c.outcomes.items} columns={2} />
      </Section>
      <Section heading={c.approach.heading} intro={c.approach.intro} tone="muted">
        <ApproachSteps />
      </Section>
      <Section heading={c.engagement.heading}>
        <Prose paragraphs={c.engagement.paragraphs} />
      </Section>
    </ServicePage>
  );
}
