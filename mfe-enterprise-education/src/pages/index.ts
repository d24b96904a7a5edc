import type { RemotePagesModule } from '@site/shared';

/**
 * What this remote exposes as `./pages`: one loader per route, so each page is its own chunk and a
 * visitor downloads only the page they open.
 */
export const pages: RemotePagesModule['pages'] = {
  '/services/enterprise/sharepoint': () => import('./SharePointPage'),
  '/services/enterprise/epm': () => import('./EpmPage'),
  '/services/enterprise/enterprise-support': () => import('./EnterpriseSupportPage'),
  '/services/education/lms': () => import('./LmsPage'),
  '/services/education/e-learning': () => import('./ELearningPage'),
};
