import type { ComponentType } from 'react';
import type { SectionContent, ServicePageContent } from '../content-types';
import type { PageLoader, RouteMeta, RouteTable } from '@site/contracts';
import { CallToAction } from './CallToAction';
import { HeroBanner } from './HeroBanner';
import { SectionList } from './SectionList';

export interface ServicePageProps {
  /** The page's entry in its remote's route table: title, group, description. */
  route: RouteMeta;
  /** The page's words and sections. */
  content: ServicePageContent;
  /** The picture of the page's group, in the hero. */
  art?: ComponentType;
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

/**
 * Every service page: hero with breadcrumb (which names the page's group, so no eyebrow repeats it), the intro (already in view on arrival, so it does not
 * fade in), the page's sections, a call to action.
 */
export function ServicePage({ route, content, art }: ServicePageProps) {
  const { lead, intro, sections, cta } = content;
  return (
    <>
      <HeroBanner
        title={route.title}
        lead={lead}
        breadcrumb={{ group: route.group, page: route.title }}
        art={art}
      />
      <SectionList sections={[introBand(intro), ...sections]} />
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
 * module. `load` imports that module; each is a chunk of its own, so a visitor downloads only the
 * page they open. `art` is the picture every page of the remote shows in its hero.
 */
export function servicePages(
  table: RouteTable,
  load: (module: string) => Promise<{ default: ServicePageContent }>,
  art?: ComponentType,
): Record<string, PageLoader> {
  return Object.fromEntries(
    table.routes.map((route) => {
      // One component per page, so loading a page again does not remount it.
      let Page: ComponentType | undefined;
      const loader: PageLoader = async () => {
        const { default: content } = await load(contentModule(route.path));
        Page ??= () => <ServicePage route={route} content={content} art={art} />;
        return { default: Page };
      };
      return [route.path, loader];
    }),
  );
}
