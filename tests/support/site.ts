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

export const servicePages: SpecPage[] = [
  {
    path: '/services/custom-dev/software-dev',
    title: 'Software Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/mobile-app-dev',
    title: 'Mobile App Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/mobile-app-dev/ios',
    title: 'iOS App Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/mobile-app-dev/android',
    title: 'Android App Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/mobile-app-dev/cross-platform',
    title: 'Cross-Platform App Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/web-app-dev',
    title: 'Web App Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/frontend-dev',
    title: 'Frontend Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/backend-dev',
    title: 'Backend Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/cloud-app-dev',
    title: 'Cloud App Development',
    group: 'Custom Development',
  },
  {
    path: '/services/custom-dev/integration',
    title: 'Systems Integration',
    group: 'Custom Development',
  },
  {
    path: '/services/business-intelligence/bi',
    title: 'BI for Business',
    group: 'Business Intelligence',
  },
  {
    path: '/services/business-intelligence/bi-process-control',
    title: 'BI for Process Control',
    group: 'Business Intelligence',
  },
  { path: '/services/data-analytics/big-data', title: 'Big Data', group: 'Data Analytics' },
  { path: '/services/data-analytics/data-science', title: 'Data Science', group: 'Data Analytics' },
  {
    path: '/services/data-analytics/data-engineering',
    title: 'Data Engineering',
    group: 'Data Analytics',
  },
  {
    path: '/services/data-analytics/data-analysis',
    title: 'Data Analysis',
    group: 'Data Analytics',
  },
  { path: '/services/enterprise/sharepoint', title: 'Microsoft SharePoint', group: 'Enterprise' },
  { path: '/services/enterprise/epm', title: 'Microsoft EPM', group: 'Enterprise' },
  {
    path: '/services/enterprise/enterprise-support',
    title: 'Enterprise Support',
    group: 'Enterprise',
  },
  { path: '/services/education/lms', title: 'Learning Management Systems', group: 'Education' },
  { path: '/services/education/e-learning', title: 'e-Learning', group: 'Education' },
  { path: '/public-health/MandE-solutions', title: 'M & E Solutions', group: 'Public Health' },
  { path: '/public-health/MandE-tools', title: 'M & E Tools', group: 'Public Health' },
  {
    path: '/public-health/analytics-and-reporting',
    title: 'Data Analytics & Reporting',
    group: 'Public Health',
  },
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
