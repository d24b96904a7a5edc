import { Art, Gear } from '@site/ui';

/** Enterprise services: an organisation's offices, kept running by the platforms and support behind them. */
export function EnterpriseArt() {
  const windows = [0, 1, 2, 3, 4].map((row) => `M170 ${104 + row * 36}h0m30 0h0m30 0h0`).join('');
  return (
    <Art>
      <rect className="art__panel" x="140" y="70" width="120" height="240" rx="8" />
      <path className="art__dots" d={windows} />
      <rect className="art__accent" x="186" y="272" width="28" height="38" rx="3" />
      <rect className="art__panel" x="60" y="160" width="80" height="150" rx="8" />
      <path className="art__text" d="M80 190h40M80 220h40M80 250h40" />
      <rect className="art__panel" x="260" y="130" width="70" height="180" rx="8" />
      <path className="art__text" d="M278 160h34M278 190h34M278 220h34" />
      <Gear cx={384} cy={120} r={26} accent />
      <path
        className="art__stroke-sky"
        d="M384 196c26 8 40 4 52-4v30c0 34-22 50-52 62-30-12-52-28-52-62v-30c12 8 26 12 52 4z"
      />
      <path className="art__stroke-accent" d="M368 236l12 12 22-24" />
      <path className="art__rule" d="M40 310h400" />
    </Art>
  );
}
