import { Art, Device, Lines, Window } from '@site/ui';

/** Cross-platform apps: one codebase above, the same app on two different phones below. */
export function CrossPlatformArt() {
  return (
    <Art>
      <Window x={150} y={36} w={180} h={110} />
      <path className="art__stroke-sky" d="M180 96l-12 12 12 12m30-24l12 12-12 12" />
      <Lines x={238} y={96} widths={[64, 44, 56]} />
      <path className="art__link" d="M240 146v24M240 170H130v26M240 170h110v26" />
      <circle className="art__accent" cx="240" cy="170" r="6" />
      <Device x={80} y={196} w={100} h={140}>
        <rect className="art__accent" x="100" y="226" width="60" height="30" rx="5" />
        <Lines x={100} y={276} widths={[60, 40]} />
      </Device>
      <Device x={300} y={196} w={100} h={140}>
        <rect className="art__accent" x="320" y="226" width="60" height="30" rx="5" />
        <Lines x={320} y={276} widths={[60, 40]} />
      </Device>
    </Art>
  );
}
