import type { Page } from '@playwright/test';

/**
 * Tells the page the visitor asked to save data (`navigator.connection.saveData`), which turns
 * warming off: what the page then fetches is what the page itself needs.
 */
export async function saveData(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', {
      configurable: true,
      get: () => ({ saveData: true, effectiveType: '4g' }),
    });
  });
}
