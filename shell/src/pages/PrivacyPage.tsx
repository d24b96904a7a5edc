import { HeroBanner, Prose, Section, company } from '@site/ui';
import { privacyContent as c } from '../content/privacy';
import { shellRoutes } from '../content/shell-routes';
import { FIGURES_ATTRIBUTE, useRetentionFigures } from '../hooks/use-retention-figures';

/**
 * The privacy notice: what the contact form collects and why, who receives it, how long each kind
 * of record is kept (the mail-service's own figures), how to have it returned or erased, and the
 * map's third party.
 */
export default function PrivacyPage() {
  const figures = useRetentionFigures();
  const officer = company.informationOfficer;
  return (
    <>
      <HeroBanner eyebrow={c.hero.eyebrow} title={shellRoutes.privacy.title} lead={c.hero.lead} />
      <Section heading={c.who.heading} animate={false}>
        <div className="privacy">
          <Prose paragraphs={c.who.paragraphs} />
          <p className="privacy__updated">{c.updated}</p>
        </div>
      </Section>
      <Section heading={c.collect.heading} tone="muted" animate={false}>
        <Prose paragraphs={c.collect.paragraphs} />
      </Section>
      <Section heading={c.recipients.heading} animate={false}>
        <Prose paragraphs={c.recipients.paragraphs} />
      </Section>
      <Section heading={c.retention.heading} id="retention" tone="muted" animate={false}>
        <div className="privacy">
          <p>{c.retention.intro}</p>
          <dl className="facts retention" {...{ [FIGURES_ATTRIBUTE]: JSON.stringify(figures) }}>
            {c.retention.rows(figures).map((row) => (
              <div key={row.figure}>
                <dt>{row.record}</dt>
                <dd data-figure={row.figure}>{row.kept}</dd>
              </div>
            ))}
          </dl>
          <p>{c.retention.mailbox}</p>
        </div>
      </Section>
      <Section heading={c.rights.heading} id="your-rights" animate={false}>
        <div className="privacy">
          <Prose paragraphs={c.rights.paragraphs} />
          <address className="privacy__officer">
            <strong>{c.rights.officer}</strong>
            <br />
            {officer.name}, {company.legalName}
            <br />
            <a href={`mailto:${officer.email}`}>{officer.email}</a>
            <br />
            <a href={`tel:${company.phone.e164}`}>{company.phone.display}</a>
          </address>
        </div>
      </Section>
      <Section heading={c.map.heading} id="map" tone="muted" animate={false}>
        <div className="privacy">
          <Prose paragraphs={c.map.paragraphs} />
          <p>
            <a href={c.map.policyUrl} rel="noopener noreferrer">
              {c.map.policy}
            </a>
          </p>
        </div>
      </Section>
    </>
  );
}
