import type { ReactNode } from 'react';

/**
 * The parts the site's pictures are drawn with. Each page has a picture of its own, drawn in code
 * by whoever owns the page (a group's pictures travel in its own page chunks, the shell's in its
 * own); what they share lives here: one 480 × 360 canvas with the same backdrop, a few shapes
 * (windows, phones, documents, stores, people, charts) and the design tokens' colours (the `art__*`
 * classes in illustrations.css, which are the pictures' shared paint), so they read as a family and
 * each stays a few hundred bytes. They are inline: nothing to fetch, and the size is fixed by the
 * viewBox before the first paint, so nothing moves. They illustrate; the page says everything they
 * show, so they are hidden from assistive technology.
 */
export function Art({ children }: { children: ReactNode }) {
  return (
    <svg
      className="art"
      viewBox="0 0 480 360"
      width="480"
      height="360"
      // Scaled to fit, never cut: the whole picture or none of it.
      preserveAspectRatio="xMidYMid meet"
      aria-hidden="true"
      focusable="false"
    >
      <circle className="art__halo" cx="300" cy="180" r="150" />
      <path className="art__grid" d="M20 40h440M20 320h440M40 20v320M440 20v320" />
      {children}
    </svg>
  );
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A window on a screen: a panel with its title bar's three dots. */
export function Window({ x, y, w, h }: Box) {
  return (
    <>
      <rect className="art__panel" x={x} y={y} width={w} height={h} rx="14" />
      <path className="art__rule" d={`M${x} ${y + 30}h${w}`} />
      <path className="art__dots" d={`M${x + 18} ${y + 15}h0m15 0h0m15 0h0`} />
    </>
  );
}

/** Lines of text: bars of the given widths, 16 apart. */
export function Lines({ x, y, widths }: { x: number; y: number; widths: readonly number[] }) {
  return (
    <path className="art__text" d={widths.map((w, i) => `M${x} ${y + i * 16}h${w}`).join('')} />
  );
}

/** A phone or tablet: a rounded body, its screen inset, and what the screen shows. */
export function Device({ x, y, w, h, children }: Box & { children?: ReactNode }) {
  const r = Math.min(w, h) / 7;
  return (
    <>
      <rect className="art__panel" x={x} y={y} width={w} height={h} rx={r} />
      <rect
        className="art__glass"
        x={x + 10}
        y={y + 18}
        width={w - 20}
        height={h - 36}
        rx={r / 3}
      />
      {children}
    </>
  );
}

/** Bars of a chart standing on a baseline at `y`; the bar at `accent` is drawn in the accent. */
export function Bars({
  x,
  y,
  heights,
  width = 16,
  gap = 8,
  accent,
}: {
  x: number;
  y: number;
  heights: readonly number[];
  width?: number;
  gap?: number;
  accent?: number;
}) {
  return heights.map((h, i) => (
    <rect
      key={i}
      className={i === accent ? 'art__accent' : 'art__sky'}
      x={x + i * (width + gap)}
      y={y - h}
      width={width}
      height={h}
      rx="2"
    />
  ));
}

/** A data store: a cylinder with its top and one band. */
export function Store({
  cx,
  cy,
  rx = 40,
  h = 60,
}: {
  cx: number;
  cy: number;
  rx?: number;
  h?: number;
}) {
  const ry = rx / 3;
  return (
    <g className="art__store">
      <path
        d={`M${cx - rx} ${cy}v${h}a${rx} ${ry} 0 0 0 ${2 * rx} 0v${-h}M${cx - rx} ${cy + h / 2}a${rx} ${ry} 0 0 0 ${2 * rx} 0`}
      />
      <ellipse cx={cx} cy={cy} rx={rx} ry={ry} />
    </g>
  );
}

/** A person: a head and shoulders, in white. */
export function Person({ cx, cy, s = 1 }: { cx: number; cy: number; s?: number }) {
  return (
    <g className="art__people">
      <circle cx={cx} cy={cy} r={10 * s} />
      <path d={`M${cx - 16 * s} ${cy + 36 * s}a${16 * s} ${16 * s} 0 0 1 ${32 * s} 0z`} />
    </g>
  );
}

/** A page of a document with its corner folded and a few lines on it. */
export function Doc({ x, y, w, h }: Box) {
  return (
    <>
      <path className="art__panel" d={`M${x} ${y}h${w - 24}l24 24v${h - 24}h${-w}z`} />
      <path className="art__rule" d={`M${x + w - 24} ${y}v24h24`} />
      <Lines x={x + 16} y={y + 40} widths={[w - 56, w - 32, w - 44].filter((n) => n > 0)} />
    </>
  );
}

/** A cloud's outline, `s` its scale (1 is about 80 × 44). */
export function Cloud({
  x,
  y,
  s = 1,
  accent = false,
}: {
  x: number;
  y: number;
  s?: number;
  accent?: boolean;
}) {
  return (
    <path
      className={accent ? 'art__stroke-accent' : 'art__stroke-sky'}
      transform={`translate(${x} ${y}) scale(${s})`}
      d="M16 44h52a16 16 0 0 0 2-32 22 22 0 0 0-42-4 18 18 0 0 0-12 36z"
    />
  );
}

/** A gear of eight teeth around a hub, at `cx, cy` with radius `r`. */
export function Gear({
  cx,
  cy,
  r,
  accent = false,
}: {
  cx: number;
  cy: number;
  r: number;
  accent?: boolean;
}) {
  const teeth = Array.from({ length: 8 }, (_, i) => {
    const a = (i * Math.PI) / 4;
    const [x1, y1] = [cx + Math.cos(a) * r, cy + Math.sin(a) * r];
    const [x2, y2] = [cx + Math.cos(a) * (r + r / 3), cy + Math.sin(a) * (r + r / 3)];
    return `M${x1.toFixed(1)} ${y1.toFixed(1)}L${x2.toFixed(1)} ${y2.toFixed(1)}`;
  }).join('');
  const stroke = accent ? 'art__stroke-accent' : 'art__stroke-sky';
  return (
    <>
      <path className={`${stroke} art__thick`} d={teeth} />
      <circle className="art__panel" cx={cx} cy={cy} r={r} />
      <circle className={stroke} cx={cx} cy={cy} r={r / 2.6} />
    </>
  );
}

/** A tick in a round badge, the sign of something done or approved. */
export function Tick({ cx, cy, r = 16 }: { cx: number; cy: number; r?: number }) {
  return (
    <>
      <circle className="art__accent" cx={cx} cy={cy} r={r} />
      <path
        className="art__stroke-navy"
        d={`M${cx - r / 2.2} ${cy}l${r / 3} ${r / 3} ${r / 1.6} ${-r / 1.6}`}
      />
    </>
  );
}
