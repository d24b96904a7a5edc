import { Art, Bars } from '@site/ui';

/** Business intelligence: the numbers a business runs on, in three key figures over the trend behind them. */
export function BusinessIntelligenceArt() {
  return (
    <Art>
      {[56, 184, 312].map((x, i) => (
        <g key={x}>
          <rect className="art__panel" x={x} y="56" width="112" height="84" rx="12" />
          <path className="art__text" d={`M${x + 16} 80h44`} />
          <path
            className={i === 1 ? 'art__stroke-accent art__thick' : 'art__stroke-sky art__thick'}
            d={`M${x + 16} 112h${[56, 60, 48][i]}`}
          />
          <path className="art__stroke-accent" d={`M${x + 92} 120v-16l-6 6m6-6l6 6`} />
        </g>
      ))}
      <rect className="art__panel" x="56" y="160" width="368" height="140" rx="12" />
      <Bars
        x={84}
        y={276}
        heights={[30, 44, 38, 58, 50, 72, 64, 88]}
        width={22}
        gap={18}
        accent={7}
      />
      <path className="art__stroke-accent" d="M95 236l40-14 40 6 40-20 40 8 40-22 40 6 40-26" />
    </Art>
  );
}
