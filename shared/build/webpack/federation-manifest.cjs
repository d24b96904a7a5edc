/**
 * A remote's `mf-manifest.json`, for a remote built with webpack's own container plugin: what it
 * consumes from the shell and the files of what it exposes. The site server reads it (the exposed
 * module's files, to preload them with a page of the group) and the deploy API reads it (the shared
 * packages and the ranges the version needs, refused when the live shell provides no match). The
 * fields and their layout are those of the federation manifest format, so the readers need not
 * know which plugin built the remote.
 */
const { assetsPlugin } = require('./assets-plugin.cjs');

/** Script and style files of chunks, each once, split by kind. */
function assetsOf(chunks) {
  const files = [...new Set(chunks.flatMap((c) => [...c.files]))];
  return {
    js: files.filter((f) => f.endsWith('.js')),
    css: files.filter((f) => f.endsWith('.css')),
  };
}

/** Every chunk reachable through the async blocks below a chunk group, its own chunks excepted. */
function asyncChunksBelow(group) {
  const own = new Set(group.chunks);
  const seen = new Set();
  const chunks = new Set();
  const visit = (g) => {
    for (const child of g.childrenIterable) {
      if (seen.has(child)) continue;
      seen.add(child);
      for (const c of child.chunks) if (!own.has(c)) chunks.add(c);
      visit(child);
    }
  };
  visit(group);
  return [...chunks];
}

/** The share settings of a request: its own entry in `shared`, or the entry of its package prefix. */
function shareSettings(shared, key) {
  if (shared[key]) return shared[key];
  const prefix = Object.keys(shared)
    .filter((k) => k.endsWith('/') && key.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? shared[prefix] : {};
}

/**
 * `name`: the remote's federation name; `exposeChunk`: the name of the exposed module's chunk;
 * `shared`: the plugin's `shared` settings; `buildName`, `buildVersion`: the workspace's package.
 */
const federationManifestPlugin = ({
  name,
  exposeChunk,
  exposePath,
  shared,
  buildName,
  buildVersion,
}) =>
  assetsPlugin('FederationManifestPlugin', 'SUMMARIZE', ({ compilation, add }) => {
    const { chunkGraph } = compilation;
    // The versions the remote's own fallbacks carry, by share key.
    const provided = new Map();
    const consumed = new Map();
    for (const module of compilation.modules) {
      const type = module.constructor.name;
      if (type === 'ProvideSharedModule') provided.set(module._name, module._version);
      if (type === 'ConsumeSharedModule') consumed.set(module.options.shareKey, module);
    }
    const sharedList = [...consumed.entries()].map(([key, module]) => {
      const settings = shareSettings(shared, key);
      const fallbackChunks = module.blocks.flatMap((block) => {
        const group = chunkGraph.getBlockChunkGroup(block);
        return group ? group.chunks : [];
      });
      const files = assetsOf(fallbackChunks);
      return {
        id: `${name}:${key}`,
        name: key,
        version: provided.get(key) || settings.version || '',
        ...(settings.singleton ? { singleton: true } : {}),
        requiredVersion: settings.requiredVersion || '*',
        assets: {
          js: { async: [], sync: files.js },
          css: { async: [], sync: files.css },
        },
        fallback: '',
      };
    });
    const group = compilation.namedChunkGroups.get(exposeChunk);
    const sync = group
      ? assetsOf(group.chunks.filter((c) => !c.hasRuntime()))
      : { js: [], css: [] };
    const lazy = group ? assetsOf(asyncChunksBelow(group)) : { js: [], css: [] };
    if (!group)
      compilation.errors.push(new Error(`${name}: no chunk ${exposeChunk} for ${exposePath}`));
    const manifest = {
      id: name,
      name,
      metaData: {
        name,
        type: 'app',
        buildInfo: { buildVersion, buildName },
        remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
        globalName: name,
        publicPath: 'auto',
      },
      shared: sharedList,
      remotes: [],
      exposes: [
        {
          id: `${name}:${exposePath.replace(/^\.\//, '')}`,
          name: exposePath.replace(/^\.\//, ''),
          assets: {
            js: { sync: sync.js, async: lazy.js },
            css: { sync: sync.css, async: lazy.css },
          },
          path: exposePath,
        },
      ],
    };
    add('mf-manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  });

module.exports = { federationManifestPlugin };
