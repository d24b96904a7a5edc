import { expect, type Page } from '@playwright/test';

/**
 * Waits until the client has taken over the prerendered page (the shell marks it when its layout
 * has rendered), so a test never clicks the static copy a moment before it is replaced.
 */
export async function ready(page: Page): Promise<void> {
  await expect(page.locator('html[data-app-ready="true"]')).toBeAttached();
}
