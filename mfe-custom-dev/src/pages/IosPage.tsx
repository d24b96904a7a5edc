import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function IosPage() {
  const meta = route('/services/custom-dev/mobile-app-dev/ios');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
