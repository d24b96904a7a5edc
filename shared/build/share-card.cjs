/**
 * Share cards: the 1200×630 picture a link preview shows (LinkedIn, chat apps, X), one per page,
 * rendered at build time in Node with no browser. Satori lays the card out and turns its text into
 * paths with the site's own font (Inter); resvg rasterises that SVG to PNG. Both ship prebuilt
 * binaries or WebAssembly inside their npm packages, so a build needs nothing else installed.
 */
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');

const WIDTH = 1200;
const HEIGHT = 630;

/** Colours of shared/ui/src/styles/tokens.css. */
const COLORS = {
  navy: '#0b2545',
  navy2: '#13315c',
  accent: '#fbbf24',
  onDark: '#ffffff',
  onDarkSoft: '#cbd5e1',
  brand: '#1d4ed8',
};

const FONT_DIR = path.join(
  path.dirname(require.resolve('@fontsource/inter/package.json')),
  'files',
);
// Satori reads TTF, OTF and WOFF (not WOFF2): Fontsource's static Inter ships WOFF beside WOFF2.
const FONT_FILES = [
  { weight: 500, file: 'inter-latin-500-normal.woff' },
  { weight: 700, file: 'inter-latin-700-normal.woff' },
  { weight: 800, file: 'inter-latin-800-normal.woff' },
];

let fonts;
const loadFonts = () =>
  (fonts ??= FONT_FILES.map(({ weight, file }) => ({
    name: 'Inter',
    weight,
    style: 'normal',
    data: fs.readFileSync(path.join(FONT_DIR, file)),
  })));

/** A tiny element factory, so the layout reads like markup without JSX in a build script. */
const h = (type, style, ...children) => ({
  type,
  props: { style, children: children.length === 1 ? children[0] : children },
});

/** The company mark of shared/ui/src/components/Logo.tsx, drawn for a dark background. */
const mark = (size) => ({
  type: 'svg',
  props: {
    width: size,
    height: size,
    viewBox: '0 0 40 40',
    children: [
      { type: 'rect', props: { width: 40, height: 40, rx: 9, fill: COLORS.onDark } },
      {
        type: 'path',
        props: {
          d: 'M7 27l9-11 6 7 4-4 7 8',
          fill: 'none',
          stroke: COLORS.brand,
          strokeWidth: 3,
          strokeLinejoin: 'round',
          strokeLinecap: 'round',
        },
      },
      {
        type: 'path',
        props: { d: 'M7 31h26', stroke: COLORS.navy, strokeWidth: 2.5, strokeLinecap: 'round' },
      },
    ],
  },
});

/** Long titles step down a size, so every title fits in three lines at most. */
const titleSize = (title) => (title.length <= 28 ? 76 : title.length <= 48 ? 64 : 54);

/**
 * The card's layout: the company's name and mark at the top, the page's group and title in the
 * middle, what the company does and where at the foot, on the navy of the site's hero banners.
 */
function layout({ title, group, company, footer }) {
  return h(
    'div',
    {
      width: WIDTH,
      height: HEIGHT,
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: '64px 80px',
      fontFamily: 'Inter',
      color: COLORS.onDark,
      backgroundColor: COLORS.navy,
      backgroundImage: `linear-gradient(135deg, ${COLORS.navy} 0%, ${COLORS.navy} 55%, ${COLORS.navy2} 100%)`,
    },
    h(
      'div',
      { display: 'flex', alignItems: 'center' },
      mark(56),
      h(
        'div',
        { display: 'flex', marginLeft: 20, fontSize: 34, fontWeight: 700, letterSpacing: -0.5 },
        company,
      ),
    ),
    h(
      'div',
      { display: 'flex', flexDirection: 'column', maxWidth: 1000 },
      h('div', {
        display: 'flex',
        width: 72,
        height: 6,
        borderRadius: 3,
        background: COLORS.accent,
      }),
      h(
        'div',
        {
          display: 'flex',
          marginTop: 28,
          fontSize: 28,
          fontWeight: 700,
          letterSpacing: 3,
          textTransform: 'uppercase',
          color: COLORS.accent,
        },
        group,
      ),
      h(
        'div',
        {
          display: 'flex',
          marginTop: 16,
          fontSize: titleSize(title),
          fontWeight: 800,
          lineHeight: 1.08,
          letterSpacing: -1.5,
        },
        title,
      ),
    ),
    h(
      'div',
      {
        display: 'flex',
        justifyContent: 'space-between',
        paddingTop: 24,
        borderTop: `2px solid ${COLORS.navy2}`,
        fontSize: 24,
        fontWeight: 500,
        color: COLORS.onDarkSoft,
      },
      footer,
    ),
  );
}

/**
 * Renders one card to PNG.
 * @param {{ title: string, group: string, company: string, footer?: string }} card
 * @returns {Promise<Buffer>}
 */
async function renderShareCard({ title, group, company, footer = '' }) {
  const { default: satori } = require('satori');
  const { Resvg } = require('@resvg/resvg-js');
  const svg = await satori(layout({ title, group, company, footer }), {
    width: WIDTH,
    height: HEIGHT,
    fonts: loadFonts(),
  });
  return new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH } }).render().asPng();
}

// Everything a card's pixels depend on besides its words: this file, the two renderers' versions
// and the fonts. A change to any of them renders every card afresh.
let generatorKey;
const getGeneratorKey = () =>
  (generatorKey ??= createHash('sha256')
    .update(fs.readFileSync(__filename))
    .update(require('satori/package.json').version)
    .update(require('@resvg/resvg-js/package.json').version)
    .update(FONT_FILES.map((f) => f.file).join())
    .digest('hex'));

const DEFAULT_CACHE_DIR = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'share-cards');

/**
 * Renders a card, or reads it from the cache when the same words were rendered by the same
 * generator before, so a rebuild costs a file read per page.
 * @param {{ title: string, group: string, company: string, footer?: string }} card
 * @param {{ cacheDir?: string | false }} [options]
 * @returns {Promise<Buffer>}
 */
async function shareCard(card, { cacheDir = DEFAULT_CACHE_DIR } = {}) {
  if (!cacheDir) return renderShareCard(card);
  const key = createHash('sha256')
    .update(getGeneratorKey())
    .update(JSON.stringify([card.title, card.group, card.company, card.footer ?? '']))
    .digest('hex');
  const file = path.join(cacheDir, `${key}.png`);
  try {
    return fs.readFileSync(file);
  } catch {
    const png = await renderShareCard(card);
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(file, png);
    return png;
  }
}

/** `/services/custom-dev/ios` -> `services-custom-dev-ios`; the home page is `home`. */
const cardSlug = (pagePath) =>
  pagePath
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-') || 'home';

/** Width and height of a PNG, read from its IHDR chunk. */
function pngSize(png) {
  const signature = '89504e470d0a1a0a';
  if (
    png.subarray(0, 8).toString('hex') !== signature ||
    png.toString('ascii', 12, 16) !== 'IHDR'
  ) {
    throw new Error('not a PNG');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

module.exports = {
  SHARE_CARD_WIDTH: WIDTH,
  SHARE_CARD_HEIGHT: HEIGHT,
  renderShareCard,
  shareCard,
  cardSlug,
  pngSize,
};
