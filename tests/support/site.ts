import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SITE_REMOTES } from '@site/contracts/site';

/**
 * The site's pages as the specification lists them (route and title), the expectations the browser
 * tests hold the built site to. Written out here rather than read from the code under test; only a
 * page group the specification does not list yet (one `npm run new-group` has just made) is held to
 * its own route table, so the site's whole page list stays the tests' list.
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
  { path: '/privacy', title: 'Privacy Notice' },
];

/** The pages of one breadcrumb group, as [path, title]. */
const group = (name: string, pages: [path: string, title: string][]): SpecPage[] =>
  pages.map(([path, title]) => ({ path, title, group: name }));

const specifiedPages: SpecPage[] = [
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

const ROOT = path.resolve(__dirname, '..', '..');
const within = (prefixes: readonly string[], p: string) =>
  prefixes.some((prefix) => p.startsWith(`${prefix}/`));

/** The groups in the site table that the specification above does not list, with their pages. */
const unlistedPages: SpecPage[] = SITE_REMOTES.filter(
  (r) => !specifiedPages.some((p) => within(r.prefixes, p.path)),
).flatMap((r) => {
  const table = JSON.parse(
    readFileSync(path.join(ROOT, r.folder, 'src', 'routes.json'), 'utf8'),
  ) as { routes: { path: string; title: string; group: string }[] };
  return table.routes.map(({ path: p, title, group: name }) => ({ path: p, title, group: name }));
});

export const servicePages: SpecPage[] = [...specifiedPages, ...unlistedPages];

/**
 * The ways into the services: the services page, which lists every group and its pages, and each
 * group's overview at its prefix (a group `npm run new-group` made has its overview among its own
 * pages above).
 */
export const hubPages: SpecPage[] = [
  { path: '/services', title: 'Services' },
  ...group('Custom Development', [['/services/custom-dev', 'Custom Development']]),
  ...group('Business Intelligence', [['/services/business-intelligence', 'Business Intelligence']]),
  ...group('Data Analytics', [['/services/data-analytics', 'Data Analytics']]),
  ...group('Enterprise', [['/services/enterprise', 'Enterprise Services']]),
  ...group('Education', [['/services/education', 'Education Technology']]),
  ...group('Public Health', [['/public-health', 'Public Health']]),
];

/** Each group in the site table: its local origin and one of its pages. */
export const remotes = SITE_REMOTES.map((r) => ({
  name: r.name,
  origin: `http://localhost:${r.port}`,
  sample: servicePages.find((p) => within(r.prefixes, p.path))!.path,
}));

export const NOT_FOUND = {
  heading: 'Page not found..',
  text: "We're sorry, the page you're looking for could not be found..",
};
