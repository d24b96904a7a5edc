import { Art, Cloud } from '@site/ui';

/** EPM: a project plan moving off an old server: the schedule's bars and milestones, carried to the new home. */
export function EpmArt() {
  const tasks = [
    [110, 90, 'art__sky'],
    [150, 120, 'art__sky'],
    [200, 80, 'art__accent'],
    [240, 110, 'art__sky'],
  ] as const;
  return (
    <Art>
      <rect className="art__panel" x="40" y="60" width="300" height="230" rx="14" />
      <path className="art__rule" d="M40 96h300M100 96v194" />
      <path className="art__text" d="M56 128h28M56 164h28M56 200h28M56 236h28" />
      {tasks.map(([x, w, c], i) => (
        <rect key={i} className={c} x={x} y={116 + i * 36} width={w} height="22" rx="11" />
      ))}
      <path className="art__accent" d="M318 258l12 12-12 12-12-12z" />
      <path className="art__link" d="M290 250l28 8" />
      <rect className="art__panel" x="370" y="220" width="70" height="74" rx="8" />
      <path className="art__text" d="M384 242h42M384 260h42M384 278h42" />
      <path className="art__stroke-accent" d="M405 210v-64m-12 12l12-12 12 12" />
      <Cloud x={366} y={84} s={0.95} />
    </Art>
  );
}
