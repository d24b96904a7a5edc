import { Art, Device, Lines } from '@site/ui';

/** Mobile apps: a tablet, and two phones of different makers showing the same app. */
export function MobileAppDevArt() {
  return (
    <Art>
      <Device x={60} y={80} w={200} h={220}>
        <rect className="art__sky" x="86" y="116" width="148" height="56" rx="6" />
        <Lines x={86} y={196} widths={[120, 96, 140, 80]} />
      </Device>
      <Device x={230} y={60} w={100} h={200}>
        <rect className="art__accent" x="252" y="98" width="56" height="40" rx="6" />
        <Lines x={252} y={160} widths={[56, 40, 48]} />
        <path className="art__rule" d="M268 248h24" />
      </Device>
      <Device x={350} y={100} w={90} h={180}>
        <circle className="art__white" cx="395" cy="110" r="3" />
        <rect className="art__sky" x="370" y="134" width="50" height="36" rx="6" />
        <Lines x={370} y={188} widths={[50, 36, 44]} />
      </Device>
    </Art>
  );
}
