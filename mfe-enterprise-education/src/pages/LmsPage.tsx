import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function LmsPage() {
  const meta = route('/services/education/lms');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
