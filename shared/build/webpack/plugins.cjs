/**
 * The files a build writes beside its bundles: the share cards, a remote's route table, and the
 * lists of files each page needs, which the site server reads to preload them.
 */
const fs = require('node:fs');
const path = require('node:path');
const { assetsPlugin } = require('./assets-plugin.cjs');
const { shareCard, cardSlug } = require('../share-card.cjs');

const sources = new Map();
const UI_DIR = path.dirname(require.resolve('@site/ui/package.json'));
/** A module of the UI package's TypeScript source (its one definition), loaded once through tsx. */
function source(file) {
  if (!sources.has(file)) {
    sources.set(file, require('tsx/cjs/api').require(path.join(UI_DIR, file), __filename));
  }
  return sources.get(file);
}

/**
 * Renders a share card for each page and adds it as `share/<slug>.<hash>.png`, content-hashed so
 * it can be served with immutable caching. Returns each page's file by its path.
 */
async function emitShareCards({ compilation, add }, pages) {
  const { name, tagline, address } = source('src/company.ts').company;
  const footer = `${tagline.charAt(0).toUpperCase()}${tagline.slice(1)} · ${address.locality}, ${address.country}`;
  const { createHash } = compilation.compiler.webpack.util;
  const files = {};
  for (const page of pages) {
    const png = await shareCard({ title: page.title, group: page.group, company: name, footer });
    const hash = createHash(compilation.outputOptions.hashFunction)
      .update(png)
      .digest('hex')
      .slice(0, 10);
    const file = `share/${cardSlug(page.slug ?? page.path)}.${hash}.png`;
    add(file, png, { immutable: true });
    files[page.path] = file;
  }
  return files;
}

/**
 * The shell's own pages' share cards, with `share/cards.json` mapping each page's path to its card
 * (the 404 page's path is `*`, the catch-all route's).
 */
const shareCardPlugin = (pages) =>
  assetsPlugin('ShareCardPlugin', 'ADDITIONS', async (build) => {
    const files = await emitShareCards(build, pages);
    build.add('share/cards.json', `${JSON.stringify(files, null, 2)}\n`);
  });

/**
 * Emits the remote's route table beside its remoteEntry.js, validated against the contract. With
 * `shareCards`, each route gets a share card in the version folder, named in its `image` field.
 */
const routeTablePlugin = (file, { shareCards = false } = {}) =>
  assetsPlugin('RouteTablePlugin', 'ADDITIONS', async (build) => {
    const { compilation } = build;
    compilation.fileDependencies.add(file);
    const table = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!table.remote || !Array.isArray(table.routes) || !Array.isArray(table.prefixes)) {
      compilation.errors.push(new Error(`${file}: not a route table`));
      return;
    }
    if (shareCards) {
      const images = await emitShareCards(build, table.routes);
      for (const route of table.routes) route.image = images[route.path];
    }
    build.add('routes.json', `${JSON.stringify(table, null, 2)}\n`);
  });

/** The script and style files of chunk groups, each once. */
const groupFiles = (groups) =>
  [...new Set(groups.flatMap((g) => g.chunks.flatMap((c) => [...c.files])))].filter((f) =>
    /\.(js|css)$/.test(f),
  );

/**
 * Writes which files each page of a remote needs in the browser (`page-assets.json`: path -> the
 * page chunk's files), so the site server can preload them in the page it composes. A page is drawn
 * from its content module, named by `contentModule` of src/components/ServicePage.tsx, which
 * `src/pages/index.ts` imports lazily: the page's files are those of the chunk groups holding that
 * module. Runs after content hashes are final, so the names written are the names served.
 */
const pageAssetsPlugin = (dir) =>
  assetsPlugin('PageAssetsPlugin', 'SUMMARIZE', ({ compilation, add }) => {
    const table = JSON.parse(fs.readFileSync(path.join(dir, 'src', 'routes.json'), 'utf8'));
    const { contentModule } = source('src/components/ServicePage.tsx');
    // A content module and the page's picture it imports are usually concatenated into one module
    // of the chunk graph: each file is found through the module that holds it.
    const byResource = new Map();
    for (const m of compilation.modules) {
      for (const inner of m.modules ?? [m]) if (inner.resource) byResource.set(inner.resource, m);
    }
    const pages = {};
    for (const { path: pagePath } of table.routes) {
      const file = path.join(dir, 'src', 'content', `${contentModule(pagePath)}.ts`);
      const module = byResource.get(file);
      if (!module) continue;
      const chunks = [...compilation.chunkGraph.getModuleChunksIterable(module)];
      pages[pagePath] = groupFiles(chunks.flatMap((c) => [...c.groupsIterable]));
    }
    add('page-assets.json', JSON.stringify({ pages }, null, 2));
  });

/**
 * Writes the files of the shell's named chunk groups (`server/chunks.json`, beside the Node build
 * and outside the public folder), e.g. the federation runtime and each lazily loaded page, so the
 * site server can preload what a page will need.
 */
const chunkGroupsPlugin = () =>
  assetsPlugin('ChunkGroupsPlugin', 'SUMMARIZE', ({ compilation, add }) => {
    const groups = {};
    for (const [name, group] of compilation.namedChunkGroups) groups[name] = groupFiles([group]);
    add('../server/chunks.json', JSON.stringify(groups, null, 2));
  });

module.exports = { shareCardPlugin, routeTablePlugin, pageAssetsPlugin, chunkGroupsPlugin };
