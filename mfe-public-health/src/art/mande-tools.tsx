import { Art, Device } from '@site/ui';

/** M & E tools: a paper register set aside for a form on a phone that works in the field, offline. */
export function MandEToolsArt() {
  return (
    <Art>
      <g transform="rotate(-8 130 190)">
        <rect className="art__panel" x="60" y="90" width="140" height="190" rx="8" />
        <path className="art__text" d="M80 130h100M80 154h100M80 178h80M80 202h100M80 226h60" />
      </g>
      <path className="art__stroke-accent art__thick" d="M86 116l90 130m0-130l-90 130" />
      <Device x={230} y={60} w={150} h={260}>
        <path className="art__text" d="M256 102h80" />
        {[130, 168, 206].map((y, i) => (
          <g key={y}>
            <rect
              className={i < 2 ? 'art__accent' : 'art__glass'}
              x="256"
              y={y}
              width="22"
              height="22"
              rx="5"
            />
            <path className="art__text" d={`M292 ${y + 11}h56`} />
          </g>
        ))}
        <rect className="art__sky" x="256" y="252" width="98" height="30" rx="15" />
      </Device>
      <path
        className="art__panel"
        d="M418 150c-16-18-24-30-24-42a24 24 0 0 1 48 0c0 12-8 24-24 42z"
      />
      <circle className="art__accent" cx="418" cy="108" r="8" />
    </Art>
  );
}
