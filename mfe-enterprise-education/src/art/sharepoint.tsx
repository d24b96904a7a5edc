import { Art, Lines, Person, Tick, Window } from '@site/ui';

/** SharePoint: the intranet people open each morning: the news, the shared documents, the approval done. */
export function SharepointArt() {
  return (
    <Art>
      <Window x={40} y={50} w={300} h={250} />
      <rect className="art__sky" x="60" y="100" width="260" height="56" rx="8" opacity="0.85" />
      <path className="art__text" d="M78 122h120M78 140h80" />
      <path className="art__panel" d="M60 180h40l8 10h52v70H60z" />
      <path className="art__panel" d="M180 180h40l8 10h52v70h-100z" />
      <circle className="art__accent" cx="152" cy="184" r="7" />
      <Lines x={78} y={226} widths={[60, 44]} />
      <Lines x={198} y={226} widths={[60, 44]} />
      <rect className="art__panel" x="300" y="150" width="140" height="150" rx="12" />
      <Person cx={370} cy={186} s={0.9} />
      <path className="art__text" d="M332 244h76M344 262h52" />
      <Tick cx={420} cy={150} r={18} />
    </Art>
  );
}
