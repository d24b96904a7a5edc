import { Art } from '@site/ui';

/** Data analysis: a question asked of a spreadsheet, the cells that answer it, and the chart they make. */
export function DataAnalysisArt() {
  const rows = [0, 1, 2, 3, 4];
  const cols = [0, 1, 2, 3];
  return (
    <Art>
      <rect className="art__panel" x="40" y="70" width="220" height="220" rx="12" />
      {rows.map((r) =>
        cols.map((c) => (
          <rect
            key={`${r}-${c}`}
            className={c === 2 && r > 0 && r < 4 ? 'art__accent' : 'art__glass'}
            x={56 + c * 50}
            y={88 + r * 40}
            width="42"
            height="30"
            rx="4"
          />
        )),
      )}
      <path className="art__link" d="M260 170h40" />
      <rect className="art__panel" x="300" y="110" width="140" height="140" rx="12" />
      <path className="art__sky" d="M322 226h20v-40h-20zM350 226h20v-60h-20z" />
      <path className="art__accent" d="M378 226h20V136h-20z" />
      <path className="art__rule" d="M316 232h108" />
      <circle className="art__panel" cx="370" cy="76" r="30" />
      <path className="art__stroke-accent" d="M360 68a10 10 0 1 1 14 9c-4 2-4 4-4 8m0 9v1" />
    </Art>
  );
}
