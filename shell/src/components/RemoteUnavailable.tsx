import { useEffect } from 'react';
import { Link } from '@site/ui';
import { RemoteUnavailableError } from '../federation/errors';

/**
 * Shown in place of a page whose group could not be loaded (its server down, its entry missing or
 * broken, a time-out) or whose page crashed while rendering. The rest of the site keeps working;
 * Retry loads the group afresh without reloading the page.
 */
export function RemoteUnavailable({
  error,
  retrying = false,
  onRetry,
}: {
  error: unknown;
  retrying?: boolean;
  onRetry: () => void;
}) {
  const unavailable = error instanceof RemoteUnavailableError;

  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    // `data-notice` tells the client, taking over a server-rendered page, what the server showed.
    <div className="notice-page" data-notice={unavailable ? 'unavailable' : 'problem'}>
      <div className="container container--narrow">
        <div className="notice" role="alert">
          <h1 className="notice__title" tabIndex={-1} data-page-heading>
            {unavailable ? 'This page is temporarily unavailable' : 'This page ran into a problem'}
          </h1>
          <p>
            {unavailable
              ? 'We could not load this part of the site just now. The rest of the site is working, and this page usually returns within a few minutes.'
              : 'Something went wrong while showing this page. The rest of the site is working.'}
          </p>
          <div className="notice__actions">
            <button
              type="button"
              className="button button--primary"
              onClick={onRetry}
              disabled={retrying}
            >
              {retrying ? 'Retrying…' : 'Retry'}
            </button>
            <Link className="button button--secondary" to="/contact">
              Contact us
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * Above a page the server sent whole whose group's code this browser cannot load: the page reads
 * as it is and its links work as plain links; only what needs the code (accordions, counters) is
 * missing, and this says so, quietly (a status, not an alert). Retry loads the group again and
 * makes the page the client's without a reload.
 */
export function PartsUnavailable({
  retrying,
  onRetry,
}: {
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div className="parts-notice" role="status">
      <div className="container parts-notice__inner">
        <p>
          {retrying
            ? 'Trying again to load the interactive parts of this page…'
            : 'Some interactive parts of this page are unavailable just now. Everything on it can still be read, and its links work.'}
        </p>
        <button
          type="button"
          className="button button--secondary parts-notice__retry"
          onClick={onRetry}
          disabled={retrying}
        >
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
      </div>
    </div>
  );
}
