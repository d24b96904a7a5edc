import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function FrontendDevPage() {
  const meta = route('/services/custom-dev/frontend-dev');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
