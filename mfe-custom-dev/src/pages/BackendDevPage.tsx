import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function BackendDevPage() {
  const meta = route('/services/custom-dev/backend-dev');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
