import type { ComponentType, ReactNode } from 'react';
import type { LinkAction } from '../content-types';
import { Breadcrumb, type BreadcrumbProps } from './Breadcrumb';
import { ButtonLink } from './ButtonLink';

export interface HeroBannerProps {
  title: string;
  lead?: string;
  eyebrow?: string;
  breadcrumb?: BreadcrumbProps;
  actions?: readonly LinkAction[];
  children?: ReactNode;
  size?: 'page' | 'home';
  /** The page's picture, in the hero's free half. */
  art?: ComponentType;
}

/**
 * The banner at the top of every page, holding its only `h1`, and the page's picture: beside the
 * words on wide screens, whole and smaller under them on phones. The heading takes focus after a route change
 * (tabIndex -1), so screen reader users hear that the page changed.
 */
export function HeroBanner({
  title,
  lead,
  eyebrow,
  breadcrumb,
  actions = [],
  children,
  size = 'page',
  art: Art,
}: HeroBannerProps) {
  // An eyebrow that only says the heading again ("About us" over "About Us") is left out.
  const showEyebrow = eyebrow && !title.toLowerCase().startsWith(eyebrow.toLowerCase());
  return (
    <div className={Art ? `hero hero--${size} hero--art` : `hero hero--${size}`}>
      <div className="container hero__inner">
        <div className="hero__body">
          {breadcrumb && <Breadcrumb {...breadcrumb} />}
          {showEyebrow && <p className="hero__eyebrow">{eyebrow}</p>}
          <h1 className="hero__title" tabIndex={-1} data-page-heading>
            {title}
          </h1>
          {lead && <p className="hero__lead">{lead}</p>}
          {actions.length > 0 && (
            <div className="hero__actions">
              {actions.map((a, i) => (
                <ButtonLink key={a.to} to={a.to} variant={i === 0 ? 'light' : 'secondary'}>
                  {a.label}
                </ButtonLink>
              ))}
            </div>
          )}
          {children}
        </div>
        {Art && (
          <div className="hero__art">
            <Art />
          </div>
        )}
      </div>
    </div>
  );
}
