import type { Page } from '@playwright/test';

/** Collects console errors and uncaught exceptions of a page, to assert that there are none. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Chromium logs the 404 status of a 404 page's own document as a console error; that status is
    // the intended answer for an unknown path, not a fault of the page.
    const isDocument = msg.location().url === page.url() && /status of 404/.test(msg.text());
    if (!isDocument) errors.push(msg.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}
