import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function CloudAppDevPage() {
  const meta = route('/services/custom-dev/cloud-app-dev');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
