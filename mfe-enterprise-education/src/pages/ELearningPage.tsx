import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function ELearningPage() {
  const meta = route('/services/education/e-learning');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
