import type { ComponentType } from 'react';
import type { SectionContent, ServicePageContent } from '../content-types';
import { prefixOf, type PageLoader, type RouteMeta, type RouteTable } from '@site/contracts';
import { SERVICES_CRUMB } from './Breadcrumb';
import { CallToAction } from './CallToAction';
import { HeroBanner } from './HeroBanner';
import { SectionList } from './SectionList';

export interface ServicePageProps {
  /** The page's entry in its remote's route table: title, group, description. */
  route: RouteMeta;
  /** The page's words, sections and picture. */
  content: ServicePageContent;
  /** The overview page of the page's group, where the breadcrumb's group step leads. */
  overview?: string;
  /** On a group's overview page: the group's pages, each shown as a card leading to it. */
  pages?: readonly RouteMeta[];
}

/** The intro band: its words, and its figures beside them when it has any. */
function introBand({ heading, paragraphs, figures }: ServicePageContent['intro']): SectionContent {
  const prose = { kind: 'prose', paragraphs } as const;
  return figures
    ? {
        heading,
        animate: false,
        kind: 'split',
        start: prose,
        end: { kind: 'stats', items: figures },
      }
    : { heading, animate: false, ...prose };
}

/** The band of an overview page that leads to each page of its group, in the route table's order. */
function pagesBand(
  route: RouteMeta,
  pages: readonly RouteMeta[],
  words: ServicePageContent['pages'],
): SectionContent {
  return {
    heading: words?.heading ?? `${route.group} services`,
    intro: words?.intro,
    tone: 'muted',
    kind: 'links',
    items: pages.map((page) => ({ to: page.path, title: page.title, text: page.description })),
  };
}

/** The anchor of a group's section on the services page, for a group without an overview. */
export const groupAnchor = (group: string) =>
  group
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Every service page: hero with its picture and the breadcrumb (which names the page's group, so no
 * eyebrow repeats it), the intro (already in view on arrival, so it does not fade in), on a group's
 * overview the group's pages, then the page's sections and a call to action.
 */
export function ServicePage({ route, content, overview, pages }: ServicePageProps) {
  const { lead, intro, sections, cta, art } = content;
  const isOverview = pages !== undefined;
  const trail = isOverview
    ? [SERVICES_CRUMB]
    : [
        SERVICES_CRUMB,
        {
          label: route.group,
          to: overview ?? `${SERVICES_CRUMB.to}#${groupAnchor(route.group)}`,
        },
      ];
  return (
    <>
      <HeroBanner
        title={route.title}
        lead={lead}
        breadcrumb={{ trail, page: route.title }}
        art={art}
      />
      <SectionList
        sections={[
          introBand(intro),
          ...(pages?.length ? [pagesBand(route, pages, content.pages)] : []),
          ...sections,
        ]}
      />
      <CallToAction {...cta} />
    </>
  );
}

/**
 * The content module of the page at `path`: its last segment in lower case, so
 * `/public-health/MandE-solutions` reads `src/content/mande-solutions.ts`. The path is written once,
 * in the route table; `PageAssetsPlugin` (shared/build/webpack/plugins.cjs) reads the rule from here.
 */
export const contentModule = (path: string) => path.slice(path.lastIndexOf('/') + 1).toLowerCase();

/**
 * A remote's `./pages`: a loader for each route of its table, drawing the page from its content
 * module. `load` imports that module; each is a chunk of its own (with the page's picture), so a
 * visitor downloads only the page they open. A route at one of the table's prefixes is that group's
 * overview: it lists the group's other pages, and their breadcrumbs lead to it.
 */
export function servicePages(
  table: RouteTable,
  load: (module: string) => Promise<{ default: ServicePageContent }>,
): Record<string, PageLoader> {
  const paths = new Set(table.routes.map((r) => r.path));
  return Object.fromEntries(
    table.routes.map((route) => {
      const prefix = prefixOf(table.prefixes, route.path);
      const overview = prefix !== undefined && paths.has(prefix) ? prefix : undefined;
      const pages =
        route.path === prefix
          ? table.routes.filter(
              (r) => r.path !== prefix && prefixOf(table.prefixes, r.path) === prefix,
            )
          : undefined;
      // One component per page, so loading a page again does not remount it.
      let Page: ComponentType | undefined;
      const loader: PageLoader = async () => {
        const { default: content } = await load(contentModule(route.path));
        Page ??= () => (
          <ServicePage route={route} content={content} overview={overview} pages={pages} />
        );
        return { default: Page };
      };
      return [route.path, loader];
    }),
  );
}
