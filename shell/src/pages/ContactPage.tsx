import { HeroBanner, company, formatAddress, mapLink, phoneHref } from '@site/shared';
import { SocialLinks } from '../components/SocialLinks';
import { contactContent as c } from '../content/contact';
import { shellRoutes } from '../content/shell-routes';
import { ContactForm } from './contact/ContactForm';
import { ContactMap } from './contact/ContactMap';

export default function ContactPage() {
  return (
    <>
      <HeroBanner eyebrow={c.hero.eyebrow} title={shellRoutes.contact.title} lead={c.hero.lead} />
      <section className="section">
        <div className="container contact-layout">
          <ContactForm />
          <aside className="contact-details" aria-labelledby="contact-details">
            <h2 id="contact-details">{c.details.heading}</h2>
            <dl className="facts">
              <div>
                <dt>{c.details.address}</dt>
                <dd>
                  <address>{formatAddress()}</address>
                  <a href={mapLink()} rel="noopener noreferrer">
                    {c.details.mapLink}
                  </a>
                </dd>
              </div>
              <div>
                <dt>{c.details.hours}</dt>
                <dd>{company.hours.label}</dd>
              </div>
              <div>
                <dt>{c.details.timeZone}</dt>
                <dd>{company.timeZone.label}</dd>
              </div>
              <div>
                <dt>{c.details.phone}</dt>
                <dd>
                  <a href={phoneHref()}>{company.phone.display}</a>
                </dd>
              </div>
              <div>
                <dt>{c.details.email}</dt>
                <dd>
                  <a href={`mailto:${company.email}`}>{company.email}</a>
                </dd>
              </div>
              <div>
                <dt>{c.details.social}</dt>
                <dd>
                  <SocialLinks className="social-list" />
                </dd>
              </div>
            </dl>
          </aside>
        </div>
      </section>
      <section className="section section--muted" aria-labelledby="contact-map">
        <div className="container">
          <h2 id="contact-map">{c.map.heading}</h2>
          <ContactMap />
        </div>
      </section>
    </>
  );
}
