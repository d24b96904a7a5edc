import type { ReactNode } from 'react';
import { Link } from '../router';

export type ButtonVariant = 'primary' | 'secondary' | 'light';

export interface ButtonLinkProps {
  to: string;
  children: ReactNode;
  variant?: ButtonVariant;
  /** Words that complete a short label for assistive technology, not shown on screen. */
  context?: string;
}

/** A link styled as a button; internal paths use the router, others open as ordinary links. */
export function ButtonLink({ to, children, variant = 'primary', context }: ButtonLinkProps) {
  const className = `button button--${variant}`;
  const label = context ? (
    <>
      {children}
      <span className="visually-hidden"> {context}</span>
    </>
  ) : (
    children
  );
  if (/^(https?:|mailto:|tel:)/.test(to)) {
    return (
      <a className={className} href={to}>
        {label}
      </a>
    );
  }
  return (
    <Link className={className} to={to}>
      {label}
    </Link>
  );
}
