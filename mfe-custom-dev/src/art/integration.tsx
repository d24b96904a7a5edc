import { Art } from '@site/ui';

/** Systems integration: the company's systems around one hub, each joined to it by a documented link. */
export function IntegrationArt() {
  const systems = [
    [70, 60],
    [330, 60],
    [70, 240],
    [330, 240],
  ] as const;
  return (
    <Art>
      <path className="art__link" d="M150 100l60 50M330 100l-60 50M150 280l60-50M330 280l-60-50" />
      {systems.map(([x, y], i) => (
        <g key={i}>
          <rect className="art__panel" x={x} y={y} width="80" height="60" rx="10" />
          <path className="art__text" d={`M${x + 16} ${y + 24}h48M${x + 16} ${y + 40}h30`} />
        </g>
      ))}
      <circle className="art__panel" cx="240" cy="190" r="52" />
      <path className="art__stroke-accent art__thick" d="M212 176h52l-12-12M268 204h-52l12 12" />
      <circle className="art__accent" cx="150" cy="100" r="6" />
      <circle className="art__accent" cx="330" cy="280" r="6" />
    </Art>
  );
}
