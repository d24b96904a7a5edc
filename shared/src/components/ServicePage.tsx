import type { ReactNode } from 'react';
import type { CallToActionContent } from '../content-types';
import type { RouteMeta } from '../contracts/routes';
import { CallToAction } from './CallToAction';
import { HeroBanner } from './HeroBanner';

export interface ServicePageProps {
  /** The page's entry in its remote's route table: title, group, description. */
  route: RouteMeta;
  /** The sentence under the title. */
  lead: string;
  /** The page's sections. */
  children: ReactNode;
  cta?: Partial<CallToActionContent>;
}

/** The frame of every service page: hero with breadcrumb, the page's sections, a call to action. */
export function ServicePage({ route, lead, children, cta }: ServicePageProps) {
  return (
    <>
      <HeroBanner
        title={route.title}
        lead={lead}
        eyebrow={route.group}
        breadcrumb={{ group: route.group, page: route.title }}
      />
      {children}
      <CallToAction {...cta} />
    </>
  );
}
