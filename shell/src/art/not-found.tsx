import { Art } from '@site/ui';

/** The 404 page: a folded map whose dotted route wanders off it, and a compass to find the way. */
export function NotFoundArt() {
  return (
    <Art>
      <path className="art__panel" d="M60 96l100-30 100 30 100-30v200l-100 30-100-30-100 30z" />
      <path className="art__rule" d="M160 66v200M260 96v200" />
      <path className="art__link" d="M92 236c30-10 40-60 80-60s40 50 80 30 30-70 70-90" />
      <circle className="art__white" cx="92" cy="236" r="7" />
      <path className="art__stroke-accent art__thick" d="M314 100l22 22m0-22l-22 22" />
      <circle className="art__panel" cx="384" cy="250" r="58" />
      <circle className="art__stroke-sky" cx="384" cy="250" r="44" />
      <path className="art__accent" d="M384 210l12 40h-24z" />
      <path className="art__sky" d="M384 290l-12-40h24z" />
      <circle className="art__white" cx="384" cy="250" r="5" />
    </Art>
  );
}
