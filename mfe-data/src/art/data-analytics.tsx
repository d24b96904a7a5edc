import { Art } from '@site/ui';

/** Data analytics: scattered points read through a lens, and the line they were hiding. */
export function DataAnalyticsArt() {
  const points = [
    [90, 250],
    [120, 232],
    [140, 252],
    [168, 214],
    [190, 228],
    [214, 190],
    [236, 206],
    [258, 170],
    [284, 186],
    [306, 148],
    [330, 160],
    [352, 124],
    [378, 136],
    [400, 104],
  ] as const;
  return (
    <Art>
      <rect className="art__panel" x="50" y="60" width="380" height="240" rx="14" />
      <path className="art__rule" d="M76 84v190h330" />
      {points.map(([x, y], i) => (
        <circle key={i} className={i % 4 === 3 ? 'art__accent' : 'art__sky'} cx={x} cy={y} r="6" />
      ))}
      <path className="art__stroke-accent" d="M84 262L410 98" strokeDasharray="10 8" />
      <circle className="art__glass" cx="226" cy="196" r="56" />
      <circle className="art__stroke-sky art__thick" cx="226" cy="196" r="56" />
      <path className="art__stroke-sky art__thick" d="M266 236l52 52" />
    </Art>
  );
}
