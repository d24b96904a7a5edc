import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function DataSciencePage() {
  const meta = route('/services/data-analytics/data-science');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
