import { useEffect, useState } from 'react';
import {
  PRIVACY_FIGURES_PATH,
  RETENTION_DEFAULTS,
  parseRetentionFigures,
  type RetentionFigures,
} from '@site/contracts/contact/retention';

/**
 * The retention figures the mail-service runs with. The page is written with its defaults (the
 * same constants the service's settings default to), then asks the service, so a setting an
 * operator changed is what the visitor reads. An answer that cannot be read leaves the defaults.
 */
export function useRetentionFigures(): RetentionFigures {
  const [figures, setFigures] = useState<RetentionFigures>(RETENTION_DEFAULTS);
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
