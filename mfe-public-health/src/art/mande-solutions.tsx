import { Art, Bars } from '@site/ui';

/** M & E solutions: the monitoring and evaluation cycle (plan, collect, analyse, report) around its indicators. */
export function MandESolutionsArt() {
  return (
    <Art>
      <path className="art__stroke-sky art__thick" d="M240 56a124 124 0 0 1 118 86" />
      <path className="art__stroke-sky art__thick" d="M358 218a124 124 0 0 1-94 84" />
      <path className="art__stroke-accent art__thick" d="M216 302a124 124 0 0 1-94-84" />
      <path className="art__stroke-sky art__thick" d="M122 142a124 124 0 0 1 94-86" />
      <path
        className="art__sky"
        d="M366 132l-4 24-18-14zM252 310l-22 8 4-22zM114 228l4-24 18 14zM228 50l22-8-4 22z"
      />
      <circle className="art__white" cx="240" cy="56" r="8" />
      <circle className="art__white" cx="364" cy="180" r="8" />
      <circle className="art__white" cx="240" cy="304" r="8" />
      <circle className="art__white" cx="116" cy="180" r="8" />
      <rect className="art__panel" x="170" y="120" width="140" height="120" rx="14" />
      <Bars x={190} y={220} heights={[30, 46, 62, 80]} width={18} gap={10} accent={3} />
    </Art>
  );
}
