import { Section, ServicePage } from '@site/shared';
import { route } from '../routes';

export default function SharePointPage() {
  const meta = route('/services/enterprise/sharepoint');
  return (
    <ServicePage route={meta} lead={meta.description}>
      <Section heading="Overview">
        <p>{meta.description}</p>
      </Section>
    </ServicePage>
  );
}
