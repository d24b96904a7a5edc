import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function CrossPlatformPage() {
  const meta = route('/services/custom-dev/mobile-app-dev/cross-platform');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
