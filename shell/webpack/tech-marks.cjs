/**
 * The technology marks of the shell's pages, drawn from Simple Icons at build time into one sprite
 * file the build emits.
 */
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { assetsPlugin } = require('@site/build/webpack/assets-plugin');

/**
 * The technology marks as one SVG sprite file, made at build time from Simple Icons: a `<symbol>`
 * per mark, named by its Simple Icons slug (`shell/src/content/technology-marks.json`). The page
 * draws each with `<use href="sprite#slug">`, so the marks cost the page's JavaScript nothing and
 * arrive as one small file, cached for good.
 */
function techMarksSprite() {
  const marks = require('../src/content/technology-marks.json');
  const icons = path.join(path.dirname(require.resolve('simple-icons')), 'icons');
  const symbols = Object.values(marks).map((slug) => {
    const svg = fs.readFileSync(path.join(icons, `${slug}.svg`), 'utf8');
    const d = /<path d="([^"]+)"/.exec(svg)?.[1];
    if (!d) throw new Error(`simple-icons: no path in ${slug}.svg`);
    return `<symbol id="${slug}" viewBox="0 0 24 24"><path d="${d}"/></symbol>`;
  });
  const source = `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>\n`;
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
  return { file: `assets/tech-marks.${hash}.svg`, source };
}

/** Emits the sprite into the build. */
const techMarksPlugin = (sprite) =>
  assetsPlugin('TechMarksPlugin', 'ADDITIONAL', ({ add }) =>
    add(sprite.file, sprite.source, { immutable: true }),
  );

module.exports = { techMarksSprite, techMarksPlugin };
