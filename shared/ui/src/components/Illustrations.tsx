import { createContext, useContext, type ComponentType, type ReactNode } from 'react';

/**
 * The site's own artwork, drawn in code: one picture per page group and for the home, about and
 * contact pages, set in the hero's free half on wide screens and as a strip under the lead on
 * phones. Every picture shares one 480 × 360 canvas, one set of shapes and the design tokens'
 * colours (the `art__*` classes in illustrations.css), so they read as a family. They are inline:
 * nothing to fetch, and the size is fixed by the viewBox before the first paint, so nothing moves.
 * They illustrate; the page says everything they show, so they are hidden from assistive technology.
 */
function Art({ children }: { children: ReactNode }) {
  return (
    <svg
      className="art"
      viewBox="0 0 480 360"
      width="480"
      height="360"
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** A window on a screen: a panel with its title bar's three dots. */
function Window({ x, y, w, h }: { x: number; y: number; w: number; h: number }) {
  return (
    <>
      <rect className="art__panel" x={x} y={y} width={w} height={h} rx="14" />
      <path className="art__rule" d={`M${x} ${y + 30}h${w}`} />
      <circle className="art__dim" cx={x + 18} cy={y + 15} r="4.5" />
      <circle className="art__dim" cx={x + 33} cy={y + 15} r="4.5" />
      <circle className="art__dim" cx={x + 48} cy={y + 15} r="4.5" />
    </>
  );
}

/** Lines of text: bars of the given widths, 16 apart. */
function Lines({ x, y, widths }: { x: number; y: number; widths: readonly number[] }) {
  return (
    <path className="art__text" d={widths.map((w, i) => `M${x} ${y + i * 16}h${w}`).join('')} />
  );
}

/** The backdrop every picture shares: a faint dotted grid and a large soft ring. */
function Backdrop() {
  return (
    <>
      <circle className="art__halo" cx="300" cy="180" r="150" />
      <path className="art__grid" d="M20 40h440M20 320h440M40 20v320M440 20v320" />
    </>
  );
}

/** Home: the software, data and services the company builds, joined up. */
export function HomeArt() {
  return (
    <Art>
      <Backdrop />
      <Window x={36} y={72} w={292} h={200} />
      <rect className="art__sky" x="60" y="196" width="22" height="52" rx="3" />
      <rect className="art__sky" x="92" y="172" width="22" height="76" rx="3" />
      <rect className="art__sky" x="124" y="150" width="22" height="98" rx="3" />
      <rect className="art__accent" x="156" y="126" width="22" height="122" rx="3" />
      <Lines x={204} y={130} widths={[96, 70, 84, 52]} />
      <path className="art__stroke-accent" d="M204 236l24-18 22 8 26-30 24 10" />
      <rect className="art__panel" x="338" y="118" width="104" height="190" rx="18" />
      <rect className="art__glass" x="350" y="142" width="80" height="116" rx="6" />
      <circle className="art__accent" cx="390" cy="182" r="18" />
      <Lines x={362} y={220} widths={[56, 40]} />
      <path className="art__rule" d="M376 284h28" />
      <path
        className="art__stroke-sky"
        d="M380 66a22 22 0 0 1 42-8 18 18 0 0 1 6 36h-56a16 16 0 0 1 8-28z"
      />
      <path className="art__link" d="M328 172h10M400 100v18M226 72V48h140v18" />
      <circle className="art__accent" cx="226" cy="48" r="5" />
    </Art>
  );
}

/** About: a team on the Highveld, its work reaching two continents. */
export function AboutArt() {
  return (
    <Art>
      <Backdrop />
      <circle className="art__accent" cx="352" cy="118" r="34" />
      <path className="art__hill-far" d="M20 250l90-70 60 40 80-78 90 74 50-34 70 48v110H20z" />
      <path className="art__hill" d="M20 286l110-60 80 44 100-72 90 58 60-28v112H20z" />
      <path className="art__link" d="M96 214c40-80 150-110 256-96" />
      <circle className="art__white" cx="96" cy="214" r="7" />
      <circle className="art__white" cx="210" cy="148" r="7" />
      <circle className="art__white" cx="300" cy="206" r="7" />
      <path className="art__link" d="M210 148l90 58" />
      <g className="art__people">
        <circle cx="150" cy="300" r="10" />
        <path d="M134 336a16 16 0 0 1 32 0z" />
        <circle cx="196" cy="296" r="10" />
        <path d="M180 332a16 16 0 0 1 32 0z" />
        <circle cx="242" cy="300" r="10" />
        <path d="M226 336a16 16 0 0 1 32 0z" />
      </g>
    </Art>
  );
}

/** Contact: a message on its way, the office's pin and its working hours. */
export function ContactArt() {
  return (
    <Art>
      <Backdrop />
      <rect className="art__panel" x="60" y="110" width="220" height="150" rx="14" />
      <path className="art__stroke-sky" d="M60 124l110 78 110-78" />
      <path className="art__link" d="M280 150c50-10 70-40 92-70" />
      <path className="art__accent" d="M372 54l44 18-30 10-6 32z" />
      <path
        className="art__panel"
        d="M356 296c-30-34-46-58-46-80a46 46 0 0 1 92 0c0 22-16 46-46 80z"
      />
      <circle className="art__accent" cx="356" cy="216" r="16" />
      <circle className="art__glass" cx="140" cy="296" r="30" />
      <circle className="art__stroke-sky" cx="140" cy="296" r="30" />
      <path className="art__stroke-accent" d="M140 278v18l12 8" />
      <Lines x={84} y={226} widths={[60]} />
    </Art>
  );
}

/** Custom development: code in an editor, and the app it becomes on a phone. */
export function CodeArt() {
  return (
    <Art>
      <Backdrop />
      <Window x={30} y={64} w={300} h={220} />
      <path className="art__stroke-sky" d="M58 124l-14 14 14 14M100 124l14 14-14 14" />
      <path
        className="art__text"
        d="M132 132h90M58 172h40M108 172h70M78 188h110M78 204h64M152 204h40M58 220h30M58 252h150"
      />
      <path className="art__stroke-accent" d="M188 172h44M110 236h80" />
      <rect className="art__panel" x="322" y="104" width="118" height="210" rx="20" />
      <rect className="art__glass" x="336" y="128" width="90" height="150" rx="6" />
      <rect className="art__sky" x="346" y="140" width="70" height="40" rx="5" />
      <Lines x={346} y={198} widths={[70, 50, 60]} />
      <rect className="art__accent" x="346" y="244" width="46" height="20" rx="10" />
      <path className="art__rule" d="M366 296h30" />
      <path className="art__link" d="M330 190h-8" />
    </Art>
  );
}

/** Business intelligence and data analytics: data flowing from stores into a dashboard. */
export function DataArt() {
  return (
    <Art>
      <Backdrop />
      <g className="art__store">
        <path d="M40 110v40c0 9 20 16 44 16s44-7 44-16v-40" />
        <ellipse cx="84" cy="110" rx="44" ry="16" />
        <path d="M40 190v40c0 9 20 16 44 16s44-7 44-16v-40" />
        <ellipse cx="84" cy="190" rx="44" ry="16" />
      </g>
      <path className="art__link" d="M128 140h30v40h30M128 222h30v-42" />
      <circle className="art__accent" cx="188" cy="180" r="6" />
      <Window x={196} y={70} w={252} h={220} />
      <circle className="art__stroke-sky art__thick" cx="260" cy="160" r="34" />
      <path className="art__stroke-accent art__thick" d="M260 126a34 34 0 0 1 32 46" />
      <rect className="art__sky" x="318" y="166" width="16" height="36" rx="2" />
      <rect className="art__sky" x="342" y="146" width="16" height="56" rx="2" />
      <rect className="art__accent" x="366" y="126" width="16" height="76" rx="2" />
      <rect className="art__sky" x="390" y="154" width="16" height="48" rx="2" />
      <path className="art__stroke-accent" d="M220 266l40-26 34 12 48-40 40 14 40-28" />
      <Lines x={318} y={114} widths={[90]} />
    </Art>
  );
}

/** Enterprise and education: a shared workspace of documents and plans, and a course. */
export function LearningArt() {
  return (
    <Art>
      <Backdrop />
      <Window x={36} y={70} w={250} h={200} />
      <rect className="art__glass" x="56" y="118" width="96" height="60" rx="6" />
      <rect className="art__glass" x="166" y="118" width="96" height="60" rx="6" />
      <path className="art__stroke-sky" d="M70 160l18-18 16 12 22-24" />
      <rect className="art__sky" x="180" y="134" width="68" height="10" rx="5" />
      <rect className="art__accent" x="180" y="152" width="40" height="10" rx="5" />
      <Lines x={56} y={204} widths={[206, 160, 184]} />
      <rect className="art__panel" x="270" y="150" width="176" height="130" rx="14" />
      <path className="art__accent" d="M342 196v40l34-20z" />
      <rect className="art__dim" x="290" y="256" width="136" height="6" rx="3" />
      <rect className="art__accent" x="290" y="256" width="70" height="6" rx="3" />
      <path className="art__white" d="M358 60l64 26-64 26-64-26z" />
      <path className="art__stroke-sky" d="M322 100v22c20 14 52 14 72 0v-22M422 86v34" />
    </Art>
  );
}

/** Public health: the monitoring and evaluation cycle around the people a programme serves. */
export function HealthArt() {
  return (
    <Art>
      <Backdrop />
      <path className="art__stroke-sky art__thick" d="M240 70a110 110 0 0 1 104 74" />
      <path className="art__stroke-accent art__thick" d="M344 216a110 110 0 0 1-104 74" />
      <path className="art__stroke-sky art__thick" d="M136 216a110 110 0 0 1 0-72" />
      <path className="art__stroke-sky art__thick" d="M196 282a110 110 0 0 1-48-40" />
      <path className="art__sky" d="M352 138l-6 20-14-16z" />
      <path className="art__accent" d="M232 296l16-12 2 18z" />
      <circle className="art__panel" cx="240" cy="180" r="62" />
      <path className="art__accent" d="M228 148h24v20h20v24h-20v20h-24v-20h-20v-24h20z" />
      <rect className="art__panel" x="40" y="60" width="110" height="120" rx="12" />
      <path className="art__stroke-accent" d="M58 92l8 8 14-14M58 124l8 8 14-14M58 156l8 8 14-14" />
      <Lines x={92} y={94} widths={[40, 30, 40, 24, 36]} />
      <rect className="art__panel" x="338" y="226" width="110" height="96" rx="12" />
      <rect className="art__sky" x="356" y="272" width="14" height="32" rx="2" />
      <rect className="art__sky" x="378" y="256" width="14" height="48" rx="2" />
      <rect className="art__accent" x="400" y="244" width="14" height="60" rx="2" />
      <rect className="art__sky" x="422" y="264" width="10" height="40" rx="2" />
    </Art>
  );
}

/**
 * The hero picture of the page being shown, for pages that do not pass one to their `HeroBanner`:
 * the shell provides it for its own pages by route.
 */
export const HeroArtContext = createContext<ComponentType | undefined>(undefined);

/** The hero picture given, else the one the page's context provides. */
export function useHeroArt(art: ComponentType | undefined): ComponentType | undefined {
  const fromContext = useContext(HeroArtContext);
  return art ?? fromContext;
}
