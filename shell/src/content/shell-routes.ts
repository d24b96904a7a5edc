import { company } from '@site/ui';
import { SHELL_PAGES } from '@site/contracts/site';

/** Title, description and nav label of the pages the shell owns. */
export const shellRoutes = {
  home: {
    path: SHELL_PAGES.home,
    title: `${company.name}: IT solutions and consulting`,
    description: `Custom software, data and analytics, enterprise, education and public-health solutions, delivered across Africa and Europe since ${company.foundingYear}.`,
  },
  about: {
    path: SHELL_PAGES.about,
    title: 'About Us',
    description: `Who we are: an IT solutions and consulting company founded in ${company.foundingYear} in Centurion, serving 20+ industries on two continents.`,
  },
  services: {
    path: SHELL_PAGES.services,
    title: 'Services',
    description:
      'Every practice and service in one place: custom software, business intelligence, data analytics, enterprise, education and public health.',
  },
  contact: {
    path: SHELL_PAGES.contact,
    title: 'Contact Us',
    description: `Send us a message, visit our Centurion office or call ${company.phone.display}, ${company.hours.label} ${company.timeZone.label}.`,
  },
  privacy: {
    path: SHELL_PAGES.privacy,
    title: 'Privacy Notice',
    description: `What ${company.name} does with what you send through this website, how long it is kept, and how to have it returned or erased (POPIA).`,
  },
  notFound: {
    path: '',
    title: 'Page not found',
    description: "We're sorry, the page you're looking for could not be found.",
  },
  /** A group whose manifest entry could not be read (its path is the group's prefix). */
  unavailable: {
    path: '',
    title: 'Temporarily unavailable',
    description:
      'This part of the site is temporarily unavailable. The rest of the site is working.',
  },
} as const;

export interface PageMeta {
  path: string;
  title: string;
  description: string;
  /** Not to be indexed by search engines (the 404 page). */
  noindex?: boolean;
}

/** The document title for a page: its own title and the company name. */
export const documentTitle = (meta: PageMeta): string =>
  meta.path === '/' ? meta.title : `${meta.title} | ${company.name}`;
