import { Art, Lines, Window } from '@site/ui';

/** Web apps: a browser with its address bar, a page of cards, and a pointer at work on it. */
export function WebAppDevArt() {
  return (
    <Art>
      <Window x={40} y={50} w={400} h={260} />
      <rect className="art__glass" x="110" y="58" width="250" height="16" rx="8" />
      <circle className="art__accent" cx="124" cy="66" r="3" />
      <rect className="art__sky" x="64" y="104" width="352" height="60" rx="8" opacity="0.85" />
      <path className="art__text" d="M84 126h150M84 144h96" />
      <rect className="art__panel" x="64" y="180" width="106" height="104" rx="8" />
      <rect className="art__panel" x="187" y="180" width="106" height="104" rx="8" />
      <rect className="art__panel" x="310" y="180" width="106" height="104" rx="8" />
      <Lines x={78} y={204} widths={[70, 50, 60]} />
      <Lines x={201} y={204} widths={[70, 50, 60]} />
      <Lines x={324} y={204} widths={[70, 50, 60]} />
      <path className="art__accent" d="M320 240l0 52 13-13 10 22 10-5-10-21h18z" />
    </Art>
  );
}
