import type { Page } from '@playwright/test';

/**
 * Ends a test's routes before the test ends: a request still passing through one (a group's
 * warming, say) is let go unanswered, instead of its handler failing whatever test runs next.
 */
export const releaseRoutes = (page: Page): Promise<void> =>
  page.unrouteAll({ behavior: 'ignoreErrors' });
