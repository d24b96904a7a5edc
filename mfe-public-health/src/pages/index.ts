import type { RemotePagesModule } from '@site/shared';

/**
 * What this remote exposes as `./pages`: one loader per route, so each page is its own chunk and a
 * visitor downloads only the page they open.
 */
export const pages: RemotePagesModule['pages'] = {
  '/public-health/MandE-solutions': () => import('./MandESolutionsPage'),
  '/public-health/MandE-tools': () => import('./MandEToolsPage'),
  '/public-health/analytics-and-reporting': () => import('./AnalyticsReportingPage'),
};
