import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function AnalyticsReportingPage() {
  const meta = route('/public-health/analytics-and-reporting');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
