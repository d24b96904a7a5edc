import {
  Accordion,
  CheckList,
  FeatureList,
  LinkCards,
  Prose,
  Section,
  ServicePage,
} from '@site/shared';
import { analyticsReportingContent as c } from '../content/analytics-and-reporting';
import { route } from '../routes';

export default function AnalyticsReportingPage() {
  return (
    <ServicePage route={route('/public-health/analytics-and-reporting')} lead={c.lead} cta={c.cta}>
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section heading={c.reporting.heading} intro={c.reporting.intro} tone="muted">
        <FeatureList items={c.reporting.items} columns={2} />
      </Section>
      <Section heading={c.visual.heading} intro={c.visual.intro}>
        <FeatureList items={c.visual.items} columns={4} />
      </Section>
      <Section heading={c.quality.heading} tone="dark">
        <div className="split">
          <Prose paragraphs={c.quality.paragraphs} />
          <CheckList items={c.quality.checks} />
        </div>
      </Section>
      <Section heading={c.engagements.heading} tone="muted">
        <Accordion items={c.engagements.items} />
      </Section>
      <Section heading={c.related.heading}>
        <LinkCards items={c.related.items} />
      </Section>
    </ServicePage>
  );
}
