import { Art, Device, Lines } from '@site/ui';

/** Android apps: a phone with its punch-hole camera, cards and a floating action button; notifications. */
export function AndroidArt() {
  return (
    <Art>
      <Device x={140} y={44} w={170} h={290}>
        <circle className="art__white" cx="225" cy="74" r="5" />
        <rect className="art__sky" x="164" y="94" width="122" height="16" rx="4" />
        <rect className="art__panel" x="164" y="124" width="122" height="58" rx="8" />
        <Lines x={178} y={144} widths={[80, 56]} />
        <rect className="art__panel" x="164" y="194" width="122" height="58" rx="8" />
        <Lines x={178} y={214} widths={[90, 48]} />
        <circle className="art__accent" cx="268" cy="280" r="18" />
        <path className="art__stroke-navy" d="M268 272v16m-8-8h16" />
        <path className="art__dots" d="M180 308h0m45 0h0m45 0h0" />
      </Device>
      <rect className="art__panel" x="330" y="96" width="116" height="64" rx="14" />
      <path className="art__stroke-accent" d="M356 140v-14a12 12 0 0 1 24 0v14h4m-32 0h4m10 6h8" />
      <path className="art__text" d="M396 120h32M396 136h20" />
      <rect className="art__panel" x="330" y="176" width="116" height="64" rx="14" />
      <circle className="art__sky" cx="364" cy="208" r="14" />
      <path className="art__text" d="M396 200h32M396 216h20" />
      <path className="art__link" d="M310 128h20M310 208h20" />
    </Art>
  );
}
