import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type ButtonVariant = 'primary' | 'secondary' | 'light';

export interface ButtonLinkProps {
  to: string;
  children: ReactNode;
  variant?: ButtonVariant;
}

/** A link styled as a button; internal paths use the router, others open as ordinary links. */
export function ButtonLink({ to, children, variant = 'primary' }: ButtonLinkProps) {
  const className = `button button--${variant}`;
  if (/^(https?:|mailto:|tel:)/.test(to)) {
    return (
      <a className={className} href={to}>
        {children}
      </a>
    );
  }
  return (
    <Link className={className} to={to}>
      {children}
    </Link>
  );
}
