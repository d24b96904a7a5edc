/**
 * Waiting for the client to take over a page the server rendered, and moving on from there.
 */
import { expect, type Page } from '@playwright/test';

/**
 * Waits until the client has taken over the prerendered page (the shell marks it when its layout
 * has rendered), so a test never clicks the static copy a moment before it is replaced.
 */
export async function ready(page: Page): Promise<void> {
  await expect(page.locator('html[data-app-ready="true"]')).toBeAttached();
}

/**
 * Opens `from`, waits for the client, follows the link named `link` in the main area and expects
 * to arrive at `to`.
 */
export async function followMainLink(
  page: Page,
  from: string,
  link: string,
  to: string,
): Promise<void> {
  await page.goto(from);
  await ready(page);
  await page.getByRole('main').getByRole('link', { name: link }).click();
  await expect(page).toHaveURL(to);
}
