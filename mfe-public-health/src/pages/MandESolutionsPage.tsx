import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function MandESolutionsPage() {
  const meta = route('/public-health/MandE-solutions');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
