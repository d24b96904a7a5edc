import { Art, Window } from '@site/ui';

/** Frontend: the parts of an interface built to measure: a toggle, a slider, a button, the palette. */
export function FrontendDevArt() {
  return (
    <Art>
      <path
        className="art__stroke-sky"
        d="M60 44h360M60 36v16m40-8v8m40-16v16m40-8v8m40-16v16m40-8v8m40-16v16m40-8v8m40-16v16"
      />
      <Window x={60} y={76} w={360} h={240} />
      <rect className="art__sky" x="90" y="134" width="64" height="32" rx="16" />
      <circle className="art__white" cx="138" cy="150" r="12" />
      <rect className="art__glass" x="90" y="186" width="64" height="32" rx="16" />
      <circle className="art__dim" cx="106" cy="202" r="12" />
      <path className="art__stroke-sky art__thick" d="M190 150h90" />
      <path className="art__text" d="M280 150h100" />
      <circle className="art__accent" cx="280" cy="150" r="14" />
      <rect className="art__accent" x="190" y="186" width="120" height="34" rx="17" />
      <path className="art__stroke-navy" d="M216 203h68" />
      <circle className="art__sky" cx="104" cy="272" r="14" />
      <circle className="art__accent" cx="140" cy="272" r="14" />
      <circle className="art__white" cx="176" cy="272" r="14" />
      <circle className="art__dim" cx="212" cy="272" r="14" />
      <path className="art__stroke-sky" d="M340 252l-16 16 16 16m30-32l16 16-16 16" />
    </Art>
  );
}
