import { ButtonLink } from '@site/shared';
import { notFoundContent as c } from '../content/not-found';

/** Any path the site does not know: the spec's texts, a way home and a way to get in touch. */
export default function NotFoundPage() {
  return (
    <div className="not-found">
      <div className="container container--narrow">
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
    </div>
  );
}
