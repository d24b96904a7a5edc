import { Art } from '@site/ui';

/** Services: a catalogue of six practices, one tile each, with the sign of its craft. */
export function ServicesArt() {
  return (
    <Art>
      <rect className="art__panel" x="56" y="64" width="112" height="100" rx="14" />
      <path className="art__stroke-sky" d="M96 98l-16 16 16 16m32-32l16 16-16 16" />
      <rect className="art__panel" x="184" y="64" width="112" height="100" rx="14" />
      <path className="art__sky" d="M208 140h14v-30h-14zm24 0h14v-44h-14z" />
      <rect className="art__accent" x="256" y="84" width="14" height="56" rx="2" />
      <rect className="art__panel" x="312" y="64" width="112" height="100" rx="14" />
      <circle className="art__stroke-sky" cx="362" cy="108" r="22" />
      <path className="art__stroke-accent art__thick" d="M378 124l20 20" />
      <rect className="art__panel" x="56" y="184" width="112" height="100" rx="14" />
      <rect className="art__stroke-sky" x="92" y="200" width="40" height="66" rx="3" />
      <path className="art__dots" d="M104 214h0m16 0h0m-16 16h0m16 0h0m-16 16h0m16 0h0" />
      <rect className="art__panel" x="184" y="184" width="112" height="100" rx="14" />
      <path className="art__accent" d="M240 206l40 16-40 16-40-16z" />
      <path className="art__stroke-sky" d="M216 230v16c14 10 34 10 48 0v-16" />
      <rect className="art__panel" x="312" y="184" width="112" height="100" rx="14" />
      <path className="art__stroke-accent" d="M330 236h18l8-18 12 34 8-16h26" />
    </Art>
  );
}
