import { Art, Lines, Window } from '@site/ui';

/** Home: the software, data and services the company builds, joined up. */
export function HomeArt() {
  return (
    <Art>
      <Window x={36} y={72} w={292} h={200} />
      <rect className="art__sky" x="60" y="196" width="22" height="52" rx="3" />
      <rect className="art__sky" x="92" y="172" width="22" height="76" rx="3" />
      <rect className="art__sky" x="124" y="150" width="22" height="98" rx="3" />
      <rect className="art__accent" x="156" y="126" width="22" height="122" rx="3" />
      <Lines x={204} y={130} widths={[96, 70, 84, 52]} />
      <path className="art__stroke-accent" d="M204 236l24-18 22 8 26-30 24 10" />
      <rect className="art__panel" x="338" y="118" width="104" height="190" rx="18" />
      <rect className="art__glass" x="350" y="142" width="80" height="116" rx="6" />
      <circle className="art__accent" cx="390" cy="182" r="18" />
      <Lines x={362} y={220} widths={[56, 40]} />
      <path className="art__rule" d="M376 284h28" />
      <path
        className="art__stroke-sky"
        d="M380 66a22 22 0 0 1 42-8 18 18 0 0 1 6 36h-56a16 16 0 0 1 8-28z"
      />
      <path className="art__link" d="M328 172h10M400 100v18M226 72V48h140v18" />
      <circle className="art__accent" cx="226" cy="48" r="5" />
    </Art>
  );
}
