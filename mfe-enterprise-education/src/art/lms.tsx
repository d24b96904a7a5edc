import { Art, Tick } from '@site/ui';

/** Learning management: a learning path of modules, ticked off one by one, to the learner's progress. */
export function LmsArt() {
  return (
    <Art>
      <path className="art__link" d="M80 280c0-60 90-40 90-100s100-40 110-100 80-20 110-20" />
      <Tick cx={80} cy={280} r={18} />
      <Tick cx={170} cy={186} r={18} />
      <circle className="art__panel" cx="280" cy="110" r="20" />
      <circle className="art__sky" cx="280" cy="110" r="8" />
      <circle className="art__panel" cx="390" cy="60" r="16" />
      <rect className="art__panel" x="220" y="190" width="220" height="120" rx="14" />
      <path className="art__text" d="M240 216h120" />
      <rect className="art__glass" x="240" y="238" width="180" height="14" rx="7" />
      <rect className="art__accent" x="240" y="238" width="118" height="14" rx="7" />
      <path className="art__rule" d="M240 274h180" />
      <path className="art__dots" d="M246 292h0m22 0h0m22 0h0" />
      <path className="art__text" d="M318 292h90" />
    </Art>
  );
}
