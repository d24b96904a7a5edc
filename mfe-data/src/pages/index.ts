import type { RemotePagesModule } from '@site/shared';

/**
 * What this remote exposes as `./pages`: one loader per route, so each page is its own chunk and a
 * visitor downloads only the page they open.
 */
export const pages: RemotePagesModule['pages'] = {
  '/services/business-intelligence/bi': () => import('./BiPage'),
  '/services/business-intelligence/bi-process-control': () => import('./BiProcessControlPage'),
  '/services/data-analytics/big-data': () => import('./BigDataPage'),
  '/services/data-analytics/data-science': () => import('./DataSciencePage'),
  '/services/data-analytics/data-engineering': () => import('./DataEngineeringPage'),
  '/services/data-analytics/data-analysis': () => import('./DataAnalysisPage'),
};
