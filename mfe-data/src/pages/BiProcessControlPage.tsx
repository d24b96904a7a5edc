import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function BiProcessControlPage() {
  const meta = route('/services/business-intelligence/bi-process-control');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
