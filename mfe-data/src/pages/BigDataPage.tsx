import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function BigDataPage() {
  const meta = route('/services/data-analytics/big-data');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
