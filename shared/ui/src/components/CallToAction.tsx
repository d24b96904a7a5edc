import { useId } from 'react';
import type { CallToActionContent } from '../content-types';
import { ButtonLink } from './ButtonLink';

const defaults: CallToActionContent = {
  heading: 'Let’s talk about your project',
  text: 'Tell us what you are trying to achieve. A consultant will reply within one working day with next steps, not a sales script.',
  action: { to: '/contact', label: 'Get in touch' },
};

/** The closing band of a page, leading to the contact page. */
export function CallToAction({ heading, text, action }: Partial<CallToActionContent>) {
  const headingId = useId();
  const content = {
    ...defaults,
    ...(heading && { heading }),
    ...(text && { text }),
    ...(action && { action }),
  };
  return (
    <section className="cta" aria-labelledby={headingId}>
      <div className="container cta__inner">
        <div>
          <h2 className="cta__heading" id={headingId}>
            {content.heading}
          </h2>
          <p className="cta__text">{content.text}</p>
        </div>
        <ButtonLink to={content.action.to} variant="light">
          {content.action.label}
        </ButtonLink>
      </div>
    </section>
  );
}
