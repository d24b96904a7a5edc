import { company } from '../company';

/**
 * The company mark: a stylised ridge over a horizon, with the name as text beside it.
 * Decorative on its own (the name is real text), so the SVG is hidden from assistive technology.
 */
export function Logo({ tone = 'dark' }: { tone?: 'dark' | 'light' }) {
  return (
    <span className={`logo logo--${tone}`}>
      <svg
        className="logo__mark"
        viewBox="0 0 40 40"
        width="36"
        height="36"
        aria-hidden="true"
        focusable="false"
      >
        <rect width="40" height="40" rx="9" fill="currentColor" />
        <path
          d="M7 27l9-11 6 7 4-4 7 8"
          fill="none"
          stroke="var(--logo-accent)"
          strokeWidth="3"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
        <path d="M7 31h26" stroke="var(--logo-contrast)" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <span className="logo__text">{company.name}</span>
    </span>
  );
}
