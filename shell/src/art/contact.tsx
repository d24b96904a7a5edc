import { Art, Lines } from '@site/ui';

/** Contact: a message on its way, the office's pin and its working hours. */
export function ContactArt() {
  return (
    <Art>
      <rect className="art__panel" x="60" y="110" width="220" height="150" rx="14" />
      <path className="art__stroke-sky" d="M60 124l110 78 110-78" />
      <path className="art__link" d="M280 150c50-10 70-40 92-70" />
      <path className="art__accent" d="M372 54l44 18-30 10-6 32z" />
      <path
        className="art__panel"
        d="M356 296c-30-34-46-58-46-80a46 46 0 0 1 92 0c0 22-16 46-46 80z"
      />
      <circle className="art__accent" cx="356" cy="216" r="16" />
      <circle className="art__glass" cx="140" cy="296" r="30" />
      <circle className="art__stroke-sky" cx="140" cy="296" r="30" />
      <path className="art__stroke-accent" d="M140 278v18l12 8" />
      <Lines x={84} y={226} widths={[60]} />
    </Art>
  );
}
