import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function DataAnalysisPage() {
  const meta = route('/services/data-analytics/data-analysis');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
