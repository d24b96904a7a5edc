import { Art } from '@site/ui';

/** About: a team on the Highveld, its work reaching two continents. */
export function AboutArt() {
  return (
    <Art>
      <circle className="art__accent" cx="352" cy="118" r="34" />
      <path className="art__hill-far" d="M20 250l90-70 60 40 80-78 90 74 50-34 70 48v110H20z" />
      <path className="art__hill" d="M20 286l110-60 80 44 100-72 90 58 60-28v112H20z" />
      <path className="art__link" d="M96 214c40-80 150-110 256-96" />
      <circle className="art__white" cx="96" cy="214" r="7" />
      <circle className="art__white" cx="210" cy="148" r="7" />
      <circle className="art__white" cx="300" cy="206" r="7" />
      <path className="art__link" d="M210 148l90 58" />
      <g className="art__people">
        <circle cx="150" cy="300" r="10" />
        <path d="M134 336a16 16 0 0 1 32 0z" />
        <circle cx="196" cy="296" r="10" />
        <path d="M180 332a16 16 0 0 1 32 0z" />
        <circle cx="242" cy="300" r="10" />
        <path d="M226 336a16 16 0 0 1 32 0z" />
      </g>
    </Art>
  );
}
