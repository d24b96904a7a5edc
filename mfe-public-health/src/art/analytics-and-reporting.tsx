import { Art, Bars, Doc } from '@site/ui';

/** Analytics and reporting: the donor report, on time, and a map of districts showing where to act next. */
export function AnalyticsAndReportingArt() {
  const districts = [
    ['M250 80l60-16 40 30-20 50-60 6-24-34z', 'art__sky'],
    ['M350 94l60 10 16 56-46 20-50-36z', 'art__accent'],
    ['M246 116l24 34-6 60-44 14-20-60z', 'art__glass'],
    ['M270 150l60-6 50 36-10 64-74 10-32-44z', 'art__sky'],
    ['M380 180l46-20 14 70-34 40-36-26z', 'art__glass'],
  ] as const;
  return (
    <Art>
      <Doc x={50} y={60} w={170} h={240} />
      <rect className="art__glass" x="66" y="170" width="138" height="100" rx="6" />
      <Bars x={80} y={256} heights={[26, 46, 36, 64]} width={20} gap={12} accent={3} />
      <g transform="translate(24 36)">
        {districts.map(([d, c]) => (
          <path key={d} className={`${c} art__border`} d={d} />
        ))}
        <path
          className="art__panel"
          d="M318 230c-14-16-22-28-22-40a22 22 0 0 1 44 0c0 12-8 24-22 40z"
        />
        <circle className="art__accent" cx="318" cy="190" r="8" />
      </g>
    </Art>
  );
}
