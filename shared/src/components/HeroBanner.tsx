import type { ReactNode } from 'react';
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
}

/**
 * The banner at the top of every page, holding its only `h1`. The heading takes focus after a
 * route change (tabIndex -1), so screen reader users hear that the page changed.
 */
export function HeroBanner({
  title,
  lead,
  eyebrow,
  breadcrumb,
  actions = [],
  children,
  size = 'page',
}: HeroBannerProps) {
  return (
    <div className={`hero hero--${size}`}>
      <div className="container">
        {breadcrumb && <Breadcrumb {...breadcrumb} />}
        {eyebrow && <p className="hero__eyebrow">{eyebrow}</p>}
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
    </div>
  );
}
