import { Art, Store } from '@site/ui';

/** Data engineering: sources piped through cleaning stages into a layered warehouse. */
export function DataEngineeringArt() {
  return (
    <Art>
      <Store cx={80} cy={80} rx={30} h={36} />
      <Store cx={80} cy={170} rx={30} h={36} />
      <Store cx={80} cy={260} rx={30} h={36} />
      <path className="art__stroke-sky art__thick" d="M110 98h40v80h-40m40 0v90h-40m40-90h50" />
      <rect className="art__panel" x="200" y="150" width="60" height="56" rx="10" />
      <path className="art__stroke-accent" d="M216 168h28l-10 12v14l-8-4v-10z" />
      <path className="art__stroke-sky art__thick" d="M260 178h40" />
      <path className="art__panel" d="M300 130l70-50 70 50v160H300z" />
      <path className="art__accent" d="M320 170h100v24H320z" />
      <path className="art__sky" d="M320 206h100v24H320zM320 242h100v24H320z" />
    </Art>
  );
}
