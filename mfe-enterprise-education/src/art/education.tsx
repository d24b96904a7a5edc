import { Art } from '@site/ui';

/** Education: books on the shelf, a cap for those who finish, and a screen where the lessons now happen. */
export function EducationArt() {
  return (
    <Art>
      <rect className="art__panel" x="70" y="150" width="36" height="150" rx="4" />
      <rect className="art__sky" x="112" y="170" width="30" height="130" rx="4" />
      <rect className="art__panel" x="148" y="140" width="40" height="160" rx="4" />
      <path className="art__accent" d="M196 168l30-8 34 132-30 8z" />
      <path className="art__text" d="M78 180h20M156 170h24M156 270h24" />
      <path className="art__rule" d="M50 300h240" />
      <path className="art__accent" d="M350 62l84 34-84 34-84-34z" />
      <path className="art__stroke-sky" d="M306 112v34c26 20 62 20 88 0v-34M434 96v46" />
      <rect className="art__panel" x="290" y="196" width="150" height="104" rx="12" />
      <path className="art__sky" d="M352 226v44l34-22z" />
    </Art>
  );
}
