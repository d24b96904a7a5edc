import { Art } from '@site/ui';

/** BI for process control: a plant's live measurements: a gauge, and a trend held inside its alarm limits. */
export function BiProcessControlArt() {
  return (
    <Art>
      <path className="art__panel" d="M40 300V190l50-30v30l50-30v30l50-30v140z" />
      <path className="art__panel" d="M150 300V110h24v190z" />
      <path className="art__stroke-sky" d="M60 300v-40h20v40m30 0v-40h20v40" />
      <path className="art__link" d="M162 96c0-16 16-16 16-32s16-16 16-32" />
      <path className="art__stroke-sky" d="M190 250h40v-60h30" />
      <rect className="art__panel" x="250" y="60" width="190" height="130" rx="12" />
      <path className="art__stroke-accent" d="M266 96h158" strokeDasharray="8 8" />
      <path
        className="art__stroke-sky art__thick"
        d="M266 150l30-18 26 10 28-26 26 14 30-16 18 6"
      />
      <circle className="art__panel" cx="350" cy="262" r="54" />
      <path className="art__stroke-sky art__thick" d="M310 282a42 42 0 0 1 80 0" />
      <path className="art__stroke-accent art__thick" d="M378 248a42 42 0 0 1 12 34" />
      <path className="art__stroke-accent" d="M350 282l24-30" />
      <circle className="art__white" cx="350" cy="282" r="6" />
    </Art>
  );
}
