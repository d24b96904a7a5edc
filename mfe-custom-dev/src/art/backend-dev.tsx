import { Art, Store } from '@site/ui';

/** Backend: a rack of servers answering an API, and the database behind them. */
export function BackendDevArt() {
  const units = [70, 140, 210];
  return (
    <Art>
      {units.map((y) => (
        <g key={y}>
          <rect className="art__panel" x="60" y={y} width="190" height="56" rx="10" />
          <path className="art__text" d={`M84 ${y + 28}h90`} />
          <circle className="art__accent" cx="210" cy={y + 28} r="6" />
          <circle className="art__sky" cx="230" cy={y + 28} r="6" />
        </g>
      ))}
      <path className="art__link" d="M250 98h60M250 168h60M250 238h60M310 98v140" />
      <rect className="art__panel" x="300" y="60" width="140" height="70" rx="12" />
      <path
        className="art__stroke-accent"
        d="M336 80c-10 0-10 6-10 15s-6 10-10 10c4 0 10 1 10 10s0 15 10 15m68-50c10 0 10 6 10 15s6 10 10 10c-4 0-10 1-10 10s0 15-10 15"
      />
      <path className="art__text" d="M352 95h36M352 111h24" />
      <Store cx={370} cy={196} rx={50} h={80} />
    </Art>
  );
}
