import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function BiPage() {
  const meta = route('/services/business-intelligence/bi');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
