import { Logo, company, formatAddress } from '@site/ui';

/**
 * What a visitor sees when the site cannot start (for example a missing or invalid deployment
 * manifest): a clear message and the ways to reach the company, never a blank page.
 */
export function StartupError({
  error,
  manifestProblem,
}: {
  error: unknown;
  manifestProblem: boolean;
}) {
  return (
    <main id="main" className="startup-error">
      <div className="container container--narrow">
        <p>
          <Logo />
        </p>
        <div className="notice" role="alert">
          <h1 className="notice__title">The site could not load</h1>
          <p>
            {manifestProblem
              ? 'Part of the site’s configuration could not be read, so pages cannot be shown right now. Please try again in a few minutes.'
              : 'Something went wrong while starting the site. Please reload the page or try again in a few minutes.'}
          </p>
          <p className="notice__detail">
            Details: {error instanceof Error ? error.message : String(error)}
          </p>
          <p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => window.location.reload()}
            >
              Reload
            </button>
          </p>
          <p>
            You can still reach us at <a href={`mailto:${company.email}`}>{company.email}</a>, or
            visit us at {formatAddress()}.
          </p>
        </div>
      </div>
    </main>
  );
}
