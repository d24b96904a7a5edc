import { Art, Device } from '@site/ui';

/** iOS apps: an iPhone-like phone with its island and home screen, and a five-star review. */
export function IosArt() {
  const icons = [0, 1, 2].flatMap((row) =>
    [0, 1, 2].map((col) => ({ x: 176 + col * 44, y: 120 + row * 48, lit: row === 1 && col === 1 })),
  );
  return (
    <Art>
      <Device x={150} y={50} w={160} h={280}>
        <rect className="art__white" x="208" y="74" width="44" height="12" rx="6" />
        {icons.map((i) => (
          <rect
            key={`${i.x}-${i.y}`}
            className={i.lit ? 'art__accent' : 'art__sky'}
            x={i.x}
            y={i.y}
            width="32"
            height="32"
            rx="9"
            opacity={i.lit ? 1 : 0.75}
          />
        ))}
        <rect className="art__glass" x="172" y="290" width="116" height="22" rx="11" />
      </Device>
      <rect className="art__panel" x="306" y="84" width="144" height="64" rx="14" />
      <path
        className="art__accent"
        d="M326 104l3 7 8 1-6 5 2 8-7-4-7 4 2-8-6-5 8-1zm24 0l3 7 8 1-6 5 2 8-7-4-7 4 2-8-6-5 8-1zm24 0l3 7 8 1-6 5 2 8-7-4-7 4 2-8-6-5 8-1zm24 0l3 7 8 1-6 5 2 8-7-4-7 4 2-8-6-5 8-1zm24 0l3 7 8 1-6 5 2 8-7-4-7 4 2-8-6-5 8-1z"
      />
      <path className="art__text" d="M326 136h56" />
    </Art>
  );
}
