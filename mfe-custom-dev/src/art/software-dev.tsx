import { Art, Window } from '@site/ui';

/** Software development: code in an editor, on a six-step road from concept to the flag of release. */
export function SoftwareDevArt() {
  return (
    <Art>
      <Window x={40} y={56} w={250} h={180} />
      <path className="art__stroke-sky" d="M72 116l-14 14 14 14m40-28l14 14-14 14" />
      <path
        className="art__text"
        d="M142 122h70M142 138h110M72 170h60M146 170h80M72 186h120M72 202h90"
      />
      <path className="art__stroke-accent" d="M226 122h26" />
      <path className="art__link" d="M66 290c50-30 90 10 140-20s90-40 140-10 60-40 70-80" />
      <path className="art__dots" d="M66 290h0m70-8h0m70-12h0m70-18h0m70 8h0" />
      <circle className="art__accent" cx="416" cy="180" r="8" />
      <path className="art__stroke-sky" d="M416 180V96" />
      <path className="art__accent" d="M416 96h44l-12 16 12 16h-44z" />
    </Art>
  );
}
