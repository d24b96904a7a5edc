import { Art } from '@site/ui';

/** Data science: a model learning from its inputs (a small network) and the forecast it draws. */
export function DataScienceArt() {
  const layers = [
    [80, [100, 160, 220, 280]],
    [170, [130, 190, 250]],
    [260, [160, 220]],
  ] as const;
  const links = layers.slice(0, -1).flatMap(([x, ys], i) => {
    const [nx, nys] = layers[i + 1]!;
    return ys.flatMap((y) => nys.map((ny) => `M${x} ${y}L${nx} ${ny}`));
  });
  return (
    <Art>
      <path className="art__rule" d={links.join('')} />
      {layers.map(([x, ys], i) =>
        ys.map((y) => (
          <circle
            key={`${x}-${y}`}
            className={i === 2 ? 'art__accent' : 'art__sky'}
            cx={x}
            cy={y}
            r="12"
          />
        )),
      )}
      <rect className="art__panel" x="300" y="90" width="140" height="180" rx="12" />
      <path className="art__rule" d="M318 110v140h106" />
      <path className="art__stroke-sky" d="M322 226l20-14 18 8 20-24" />
      <path className="art__stroke-accent" d="M380 196l40-40" strokeDasharray="6 6" />
      <path className="art__link" d="M272 190h28" />
    </Art>
  );
}
