import { Art, Cloud } from '@site/ui';

/** Cloud apps: containers running in a cloud, scaled out, with private, public and other clouds linked. */
export function CloudAppDevArt() {
  const boxes = [
    [150, 110, 'art__sky'],
    [196, 110, 'art__sky'],
    [242, 110, 'art__accent'],
    [173, 150, 'art__sky'],
    [219, 150, 'art__sky'],
    [265, 150, 'art__sky'],
  ] as const;
  return (
    <Art>
      <Cloud x={70} y={50} s={3.4} />
      {boxes.map(([x, y, c]) => (
        <rect key={`${x}-${y}`} className={c} x={x} y={y} width="40" height="32" rx="5" />
      ))}
      <path className="art__stroke-accent" d="M340 150h30m-10-10l10 10-10 10" />
      <Cloud x={370} y={80} s={0.9} accent />
      <Cloud x={380} y={240} s={0.8} />
      <path className="art__link" d="M404 126v30M410 240v-30M120 280c40 30 200 30 250-8" />
    </Art>
  );
}
