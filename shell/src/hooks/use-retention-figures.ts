import { createContext, useContext, useEffect, useState } from 'react';
import {
  PRIVACY_FIGURES_PATH,
  RETENTION_DEFAULTS,
  parseRetentionFigures,
  type RetentionFigures,
} from '@site/contracts/contact/retention';

/** The figures the site server rendered the notice with (only on the server). */
export const ServerRetentionFigures = createContext<RetentionFigures | null>(null);

/** The attribute the notice carries its figures in, so the browser starts from what it shows. */
export const FIGURES_ATTRIBUTE = 'data-retention-figures';

/** The figures the server-rendered notice shows, or undefined (no such page, or unreadable). */
function figuresInPage(): RetentionFigures | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.querySelector(`[${FIGURES_ATTRIBUTE}]`)?.getAttribute(FIGURES_ATTRIBUTE);
  if (!text) return undefined;
  try {
    return parseRetentionFigures(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The retention figures the mail-service runs with. The site server renders the notice with the
 * figures the service told it (its defaults when it could not ask), and the browser starts from
 * the figures in the page, then asks the service, so a setting an operator has just changed is
 * what the visitor reads. An answer that cannot be read leaves the figures as they are.
 */
export function useRetentionFigures(): RetentionFigures {
  const fromServer = useContext(ServerRetentionFigures);
  const [figures, setFigures] = useState<RetentionFigures>(
    () => fromServer ?? figuresInPage() ?? RETENTION_DEFAULTS,
  );
  useEffect(() => {
    const controller = new AbortController();
    fetch(PRIVACY_FIGURES_PATH, { signal: controller.signal, credentials: 'omit' })
      .then((res) => (res.ok ? res.json() : undefined))
      .then((raw: unknown) => {
        const live = parseRetentionFigures(raw);
        if (live) setFigures(live);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return figures;
}
