import { useEffect, useState, useSyncExternalStore, useTransition } from 'react';
import { useLocation } from '@site/ui';
import type { PageRef, ServerPage } from '../page-ref';
import { PartsUnavailable } from './RemoteUnavailable';

/** The page the server sent, kept while its code is missing, and how loading that code stands. */
export interface KeptPage {
  html: string;
  /** The code could not be had (the notice shows). */
  failed: boolean;
  /** Retry is loading the code again. */
  retrying: boolean;
  retry: () => void;
}

/**
 * The page the visitor arrived on, as the server sent it, for as long as its code is missing. The
 * server sent it whole, so while its code is slow or cannot be had the page stays readable as it
 * is (its links are plain links), rather than giving way to a notice; once the code arrives (or
 * Retry brings it) the page is rendered as usual. Undefined for any other page, and once the code
 * is here.
 */
export function useKeptPage(
  page: PageRef,
  serverPage: ServerPage | undefined,
): KeptPage | undefined {
  const { key: navigation, pathname } = useLocation();
  const lazy = page.kind === 'lazy' ? page.lazy : undefined;
  // An entry pushed without a key (history.pushState by other code) is "default" too: the path
  // tells the page the server sent from another one.
  const sent = serverPage?.navigation === navigation && serverPage.path === pathname;
  const html = sent ? serverPage.html : undefined;
  const [, setLoaded] = useState(0);
  const [retries, setRetries] = useState(0);
  const [retrying, startRetry] = useTransition();
  const settled = lazy?.result(navigation);
  const keep = lazy !== undefined && html !== undefined && !settled?.ok;

  useEffect(() => {
    if (!keep || settled) return;
    // Render again when the code arrives, or when loading it gives up.
    let current = true;
    void lazy.load(navigation).then(() => current && setLoaded((n) => n + 1));
    return () => {
      current = false;
    };
  }, [keep, settled, lazy, navigation]);

  // Retry worked: the notice and its button are gone, so focus goes where a new page puts it.
  const recovered = html !== undefined && !keep && retries > 0;
  useEffect(() => {
    if (recovered && document.activeElement === document.body)
      document
        .querySelector<HTMLElement>('main [data-page-heading]')
        ?.focus({ preventScroll: true });
  }, [recovered]);

  if (!keep) return undefined;
  const failed = settled !== undefined;
  return {
    html,
    failed,
    // After a Retry the notice stays, saying it is trying, until the code arrives or fails again.
    retrying: retrying || (!failed && retries > 0),
    retry: () =>
      startRetry(() => {
        lazy.retry();
        setRetries((n) => n + 1);
      }),
  };
}

const subscribeNever = () => () => {};

/**
 * `<main>` holding the kept page as the server sent it (React adopts the markup and never renders
 * inside it), and above it, once React has adopted the page, the quiet notice when the code could
 * not be had. The notice is what the server could not know, so it is drawn only after adoption:
 * adoption then finds exactly the markup the server sent.
 */
export function KeptMain({ kept }: { kept: KeptPage }) {
  const adopted = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  return (
    <>
      {adopted && (kept.failed || kept.retrying) ? (
        <PartsUnavailable retrying={kept.retrying} onRetry={kept.retry} />
      ) : null}
      <main id="main" tabIndex={-1} dangerouslySetInnerHTML={{ __html: kept.html }} />
    </>
  );
}
