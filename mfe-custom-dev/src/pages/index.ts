import type { RemotePagesModule } from '@site/shared';

/**
 * What this remote exposes as `./pages`: one loader per route, so each page is its own chunk and a
 * visitor downloads only the page they open.
 */
export const pages: RemotePagesModule['pages'] = {
  '/services/custom-dev/software-dev': () => import('./SoftwareDevPage'),
  '/services/custom-dev/mobile-app-dev': () => import('./MobileAppDevPage'),
  '/services/custom-dev/mobile-app-dev/ios': () => import('./IosPage'),
  '/services/custom-dev/mobile-app-dev/android': () => import('./AndroidPage'),
  '/services/custom-dev/mobile-app-dev/cross-platform': () => import('./CrossPlatformPage'),
  '/services/custom-dev/web-app-dev': () => import('./WebAppDevPage'),
  '/services/custom-dev/frontend-dev': () => import('./FrontendDevPage'),
  '/services/custom-dev/backend-dev': () => import('./BackendDevPage'),
  '/services/custom-dev/cloud-app-dev': () => import('./CloudAppDevPage'),
  '/services/custom-dev/integration': () => import('./IntegrationPage'),
};
