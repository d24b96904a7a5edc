import { CallToAction, HeroBanner, Link, Prose, Section, groupAnchor } from '@site/ui';
import { ServicesArt } from '../art/services';
import { servicesContent as c } from '../content/services';
import { shellRoutes } from '../content/shell-routes';
import { useNavGroups } from '../hooks/use-nav-groups';
import { morePages } from '../navigation';

/**
 * The way into every service: each group of the live deployment manifest in the site table's
 * order, under a heading leading to its overview, with each of its leading pages as a compact
 * card (its menu label and its description) and, for a group with more, a link to its overview,
 * which lists them all. A page or a group a team deploys appears here without a shell build.
 */
export default function ServicesPage() {
  const groups = useNavGroups();
  return (
    <>
      <HeroBanner
        title={shellRoutes.services.title}
        lead={c.lead}
        breadcrumb={{ trail: [], page: shellRoutes.services.title }}
        art={ServicesArt}
      />
      <Section heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      {/* Each group is a band of its own, headed by an h2 like any section. */}
      <div className="section section--muted">
        <ul className="container service-groups">
          {groups.map((group) => {
            const more = morePages(group);
            return (
              <li className="service-group" id={groupAnchor(group.label)} key={group.label}>
                <h2 className="service-group__title">
                  {group.overview ? <Link to={group.overview.to}>{group.label}</Link> : group.label}
                </h2>
                {group.overview?.description && (
                  <p className="service-group__text">{group.overview.description}</p>
                )}
                <ul className="service-list">
                  {group.links.map((link) => (
                    <li key={link.to}>
                      <Link className="service-list__link" to={link.to}>
                        <h3 className="service-list__title">{link.label}</h3>
                        {link.description && (
                          <p className="service-list__text">{link.description}</p>
                        )}
                      </Link>
                    </li>
                  ))}
                </ul>
                {more ? (
                  <p className="service-group__more">
                    <Link to={more.to}>{more.label}</Link>
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
      <CallToAction {...c.cta} />
    </>
  );
}
