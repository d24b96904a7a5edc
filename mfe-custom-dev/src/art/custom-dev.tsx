import { Art } from '@site/ui';

/** Custom development: a blueprint being drawn up, a screen laid out to measure with pencil and rule. */
export function CustomDevArt() {
  return (
    <Art>
      <rect className="art__panel" x="60" y="60" width="300" height="220" rx="14" />
      <path className="art__link" d="M84 90h120v60H84zM220 90h116v130H220zM84 166h120v54H84z" />
      <path className="art__stroke-sky" d="M84 244h252" />
      <path
        className="art__stroke-sky"
        d="M84 236v16m42-10v6m42-12v16m42-10v6m42-12v16m42-10v6m42-12v16"
      />
      <path className="art__accent" d="M388 92l32 32-120 120-40 8 8-40z" />
      <path className="art__stroke-navy" d="M300 212l32 32M372 108l32 32" />
      <circle className="art__accent" cx="84" cy="90" r="6" />
    </Art>
  );
}
