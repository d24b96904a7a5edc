import { Art, Tick } from '@site/ui';

/** Enterprise support: a dedicated team on the line, answering inside two hours, the ticket closed. */
export function EnterpriseSupportArt() {
  return (
    <Art>
      <circle className="art__panel" cx="150" cy="180" r="96" />
      <path className="art__stroke-sky art__thick" d="M96 196v-26a54 54 0 0 1 108 0v26" />
      <rect className="art__accent" x="82" y="180" width="28" height="52" rx="10" />
      <rect className="art__accent" x="190" y="180" width="28" height="52" rx="10" />
      <path className="art__stroke-sky" d="M204 232c0 24-20 32-44 32" />
      <circle className="art__white" cx="156" cy="264" r="7" />
      <rect className="art__panel" x="280" y="70" width="160" height="86" rx="14" />
      <path className="art__text" d="M300 98h90M300 116h64" />
      <path className="art__accent" d="M300 156v18l18-18z" />
      <circle className="art__panel" cx="360" cy="246" r="54" />
      <circle className="art__stroke-sky" cx="360" cy="246" r="40" />
      <path className="art__stroke-accent art__thick" d="M360 246v-28m0 28l20 0" />
      <path className="art__stroke-accent" d="M360 206a40 40 0 0 1 35 20" />
      <Tick cx={410} cy={300} r={16} />
    </Art>
  );
}
