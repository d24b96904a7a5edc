import { Art, Person } from '@site/ui';

/** Public health: the health of a community, watched over: a heart's pulse above the people it serves. */
export function PublicHealthArt() {
  return (
    <Art>
      <path
        className="art__panel"
        d="M240 250c-70-44-110-82-110-126a56 56 0 0 1 110-16 56 56 0 0 1 110 16c0 44-40 82-110 126z"
      />
      <path className="art__stroke-accent art__thick" d="M150 150h48l16-34 26 68 18-34h72" />
      <Person cx={120} cy={280} s={0.8} />
      <Person cx={180} cy={292} s={0.8} />
      <Person cx={240} cy={280} s={0.8} />
      <Person cx={300} cy={292} s={0.8} />
      <Person cx={360} cy={280} s={0.8} />
    </Art>
  );
}
