import { Art, Bars, Window } from '@site/ui';

/** BI for business: the manager's dashboard: a share of revenue, sales by month, and one trusted table. */
export function BiArt() {
  return (
    <Art>
      <Window x={40} y={50} w={400} h={260} />
      <circle className="art__stroke-sky art__thick" cx="130" cy="150" r="44" />
      <path className="art__stroke-accent art__thick" d="M130 106a44 44 0 0 1 42 56" />
      <path className="art__text" d="M92 226h76M92 244h52" />
      <rect className="art__glass" x="210" y="100" width="206" height="110" rx="8" />
      <Bars x={226} y={196} heights={[36, 52, 44, 70, 62, 84]} width={20} gap={12} accent={5} />
      <path className="art__rule" d="M210 232h206M210 256h206M210 280h206M290 222v68" />
      <path className="art__text" d="M224 244h44M304 244h90M224 268h36M304 268h70" />
    </Art>
  );
}
