import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function EpmPage() {
  const meta = route('/services/enterprise/epm');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
