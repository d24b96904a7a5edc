/**
 * The site's pages as the specification lists them (route and title), the expectations the browser
 * tests hold the built site to. Written out here rather than read from the code under test.
 */
export interface SpecPage {
  path: string;
  title: string;
  /** Breadcrumb group for service pages. */
  group?: string;
}

export const shellPages: SpecPage[] = [
  { path: '/about', title: 'About Us' },
  { path: '/contact', title: 'Contact Us' },
];

/** The pages of one breadcrumb group, as [path, title]. */
const group = (name: string, pages: [path: string, title: string][]): SpecPage[] =>
  pages.map(([path, title]) => ({ path, title, group: name }));

export const servicePages: SpecPage[] = [
  ...group('Custom Development', [
    ['/services/custom-dev/software-dev', 'Software Development'],
    ['/services/custom-dev/mobile-app-dev', 'Mobile App Development'],
    ['/services/custom-dev/mobile-app-dev/ios', 'iOS App Development'],
    ['/services/custom-dev/mobile-app-dev/android', 'Android App Development'],
    ['/services/custom-dev/mobile-app-dev/cross-platform', 'Cross-Platform App Development'],
    ['/services/custom-dev/web-app-dev', 'Web App Development'],
    ['/services/custom-dev/frontend-dev', 'Frontend Development'],
    ['/services/custom-dev/backend-dev', 'Backend Development'],
    ['/services/custom-dev/cloud-app-dev', 'Cloud App Development'],
    ['/services/custom-dev/integration', 'Systems Integration'],
  ]),
  ...group('Business Intelligence', [
    ['/services/business-intelligence/bi', 'BI for Business'],
    ['/services/business-intelligence/bi-process-control', 'BI for Process Control'],
  ]),
  ...group('Data Analytics', [
    ['/services/data-analytics/big-data', 'Big Data'],
    ['/services/data-analytics/data-science', 'Data Science'],
    ['/services/data-analytics/data-engineering', 'Data Engineering'],
    ['/services/data-analytics/data-analysis', 'Data Analysis'],
  ]),
  ...group('Enterprise', [
    ['/services/enterprise/sharepoint', 'Microsoft SharePoint'],
    ['/services/enterprise/epm', 'Microsoft EPM'],
    ['/services/enterprise/enterprise-support', 'Enterprise Support'],
  ]),
  ...group('Education', [
    ['/services/education/lms', 'Learning Management Systems'],
    ['/services/education/e-learning', 'e-Learning'],
  ]),
  ...group('Public Health', [
    ['/public-health/MandE-solutions', 'M & E Solutions'],
    ['/public-health/MandE-tools', 'M & E Tools'],
    ['/public-health/analytics-and-reporting', 'Data Analytics & Reporting'],
  ]),
];

/** Each remote's own origin and the path prefixes it serves. */
export const remotes = [
  {
    name: 'custom_dev',
    origin: 'http://localhost:3001',
    sample: '/services/custom-dev/software-dev',
  },
  { name: 'data', origin: 'http://localhost:3002', sample: '/services/data-analytics/big-data' },
  {
    name: 'enterprise_education',
    origin: 'http://localhost:3003',
    sample: '/services/education/lms',
  },
  { name: 'public_health', origin: 'http://localhost:3004', sample: '/public-health/MandE-tools' },
];

export const NOT_FOUND = {
  heading: 'Page not found..',
  text: "We're sorry, the page you're looking for could not be found..",
};
