import { useId } from 'react';
import { NavLinkList } from '../components/NavLinkList';
import { ButtonLink, Link } from '@site/ui';
import { NotFoundArt } from '../art/not-found';
import { notFoundContent as c } from '../content/not-found';
import { useNavGroups } from '../hooks/use-nav-groups';

/**
 * Any path the site does not know: its picture, the spec's texts, a way home and a way to get in
 * touch, and every service page by group (from the deployment manifest's route tables) as a way on.
 */
export default function NotFoundPage() {
  const groups = useNavGroups();
  const mapId = useId();
  return (
    <div className="not-found">
      <div className="container container--narrow">
        <div className="not-found__art">
          <NotFoundArt />
        </div>
        <p className="not-found__code" aria-hidden="true">
          404
        </p>
        <h1 tabIndex={-1} data-page-heading>
          {c.heading}
        </h1>
        <p className="not-found__text">{c.text}</p>
        <div className="not-found__actions">
          <ButtonLink to="/">{c.home}</ButtonLink>
          <ButtonLink to="/contact" variant="secondary">
            {c.contact}
          </ButtonLink>
        </div>
      </div>
      {groups.length > 0 && (
        <nav className="container site-map" aria-labelledby={mapId}>
          <h2 className="site-map__heading" id={mapId}>
            {c.pages}
          </h2>
          <div className="site-map__groups">
            {groups.map((group) => (
              <section className="site-map__group" key={group.label}>
                <h3>
                  {group.overview ? <Link to={group.overview.to}>{group.label}</Link> : group.label}
                </h3>
                <NavLinkList group={group} />
              </section>
            ))}
          </div>
        </nav>
      )}
    </div>
  );
}
