import { Art, Store } from '@site/ui';

/** Big data: many stores of data in a cluster, pouring into one platform that takes it all in. */
export function BigDataArt() {
  const cluster = [
    [90, 60],
    [170, 60],
    [250, 60],
    [330, 60],
    [130, 130],
    [210, 130],
    [290, 130],
  ] as const;
  return (
    <Art>
      {cluster.map(([cx, cy]) => (
        <Store key={`${cx}-${cy}`} cx={cx} cy={cy} rx={30} h={36} />
      ))}
      <path className="art__link" d="M130 200v20h100v20M210 200v40M290 200v20h-60" />
      <path className="art__panel" d="M140 240h200l-40 40v30h-120v-30z" />
      <path className="art__rule" d="M140 240l40 40h120l40-40" />
      <path className="art__accent" d="M204 292h72v12h-72z" />
      <path className="art__stroke-accent" d="M400 100v160m-12-12l12 12 12-12" />
    </Art>
  );
}
