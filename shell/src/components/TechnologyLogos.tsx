/**
 * A wall of technology marks. Each tile is a monogram and the technology's name as text, so it
 * reads well to everyone and needs no third-party logo files.
 */
const PALETTE = ['#1d4ed8', '#0f766e', '#7c3aed', '#b45309', '#be123c', '#0369a1'];

const monogram = (name: string) =>
  name
    .replace(/^\./, '')
    .split(/[\s.-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

export function TechnologyLogos({ names }: { names: readonly string[] }) {
  return (
    <ul className="tech-grid">
      {names.map((name, i) => (
        <li className="tech" key={name}>
          <svg viewBox="0 0 40 40" width="40" height="40" aria-hidden="true" focusable="false">
            <rect width="40" height="40" rx="10" fill={PALETTE[i % PALETTE.length]} />
            <text
              x="20"
              y="25.5"
              textAnchor="middle"
              fontSize="15"
              fontWeight="700"
              fill="#fff"
              fontFamily="inherit"
            >
              {monogram(name)}
            </text>
          </svg>
          <span>{name}</span>
        </li>
      ))}
    </ul>
  );
}
