/**
 * The webpack configuration of the shell and of every remote, built from one function so that all
 * apps compile, share and name their files the same way.
 */
const path = require('node:path');
const fs = require('node:fs');
const { DefinePlugin, IgnorePlugin, optimize, container } = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CssMinimizerPlugin = require('css-minimizer-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');
const { sharedModules, REMOTES, PROVIDED } = require('./federation.cjs');
const {
  shareCardPlugin,
  routeTablePlugin,
  pageAssetsPlugin,
  chunkGroupsPlugin,
} = require('./webpack/plugins.cjs');
const { buildRecordPlugin, sourcesDigest } = require('./webpack/build-record.cjs');
const { federationManifestPlugin } = require('./webpack/federation-manifest.cjs');
const { PinnedChunkLoadingPlugin } = require('./webpack/pinned-loading.cjs');

const rules = (production) => [
  {
    test: /\.tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'ts-loader',
      options: {
        transpileOnly: true,
        // The repository's settings, so any copy of a workspace (a branch, a CI checkout) builds alike.
        configFile: path.join(__dirname, '..', '..', 'tsconfig.build.json'),
        compilerOptions: { noEmit: false, sourceMap: !production },
      },
    },
  },
  {
    test: /\.css$/,
    use: [MiniCssExtractPlugin.loader, 'css-loader'],
  },
  { test: /\.(woff2?|png|svg|jpe?g|webp|ico)$/, type: 'asset/resource' },
];

/**
 * The Node build of an app's pages, for rendering them on the server with React's own renderer.
 * One file, CommonJS, no browser globals needed; styles are the browser build's business. The
 * packages in `provided` are not bundled: the site server hands the remote its own copies (the
 * same singletons the browser shares), so server and browser render with the same React and the
 * same shared components.
 */
function serverConfig({ dir, production, uniqueName, entry, outputPath, filename, provided = [] }) {
  const config = base({ dir, production, uniqueName: `${uniqueName}_server` });
  return {
    ...config,
    name: 'server',
    target: 'node',
    entry: { [filename.replace(/\.js$/, '')]: entry },
    devtool: false,
    module: {
      rules: [
        rules(production)[0],
        {
          test: /\.(woff2?|png|svg|jpe?g|webp|ico)$/,
          type: 'asset/resource',
          generator: { emit: false },
        },
      ],
    },
    externals: Object.fromEntries(provided.map((name) => [name, `commonjs ${name}`])),
    output: {
      ...config.output,
      path: outputPath,
      filename,
      library: { type: 'commonjs2' },
      publicPath: '/',
      assetModuleFilename: production
        ? 'assets/[name].[contenthash:10][ext]'
        : 'assets/[name][ext]',
      clean: false,
    },
    optimization: { minimize: false, splitChunks: false },
    plugins: [
      new optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
      // Style sheets reach the page from the browser build; the server only needs the markup.
      new IgnorePlugin({ resourceRegExp: /\.css$/ }),
    ],
  };
}

/**
 * Brotli and gzip copies of the text files a browser fetches, beside each (`x.js.br`, `x.js.gz`), made once at build
 * time at the strongest settings, so the static hosts send them as they are (negotiated from the
 * request's Accept-Encoding) and never compress per request. Only where the copy is smaller.
 */
function precompress(production) {
  if (!production) return [];
  // Not the JSON files: the browser fetches none of them (the site server reads route tables and
  // manifests itself), and a hand-edited copy must never be shadowed by a stale compressed one.
  const test = /\.(js|css|html|svg|txt|xml|map)$/;
  // Files a build writes beside its public folder (the shell's server/chunks.json) are not served.
  const OUTSIDE = /^\.\.\//;
  return [
    new CompressionPlugin({
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
      test,
      exclude: OUTSIDE,
      threshold: 512,
      minRatio: 0.9,
    }),
    new CompressionPlugin({
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
      test,
      exclude: OUTSIDE,
      threshold: 512,
      minRatio: 0.9,
    }),
  ];
}

/** The module every remote exposes, for the browser and for the server. */
const EXPOSED_PAGES = './src/pages/index.ts';

function base({ dir, production, uniqueName }) {
  return {
    context: dir,
    mode: production ? 'production' : 'development',
    devtool: production ? false : 'eval-cheap-module-source-map',
    entry: { main: './src/index.ts' },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: { rules: rules(production) },
    output: { uniqueName, clean: true },
    performance: { hints: false },
    optimization: {
      minimizer: ['...', new CssMinimizerPlugin()],
    },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'warn' },
  };
}

/**
 * What the shell provides to its remotes, by package: the version installed for the shell and the
 * range it declares (the same singletons and ranges the remotes consume, from federation.cjs).
 */
function hostShared(pkg, dir) {
  const installed = (name) =>
    require(require.resolve(`${name}/package.json`, { paths: [dir] })).version;
  const modules = sharedModules(pkg);
  const packageOf = (name) => (name.startsWith('@') ? name : name.split('/')[0]);
  return Object.fromEntries(
    PROVIDED.map((name) => {
      const pkgName = packageOf(name);
      const key = name === pkgName ? name : `${pkgName}/`;
      return [name, { version: installed(pkgName), requiredVersion: modules[key].requiredVersion }];
    }),
  );
}

/**
 * The host. Its remotes are not listed here: it finds them at run time in `/remotes.json`.
 * `shareCards`: the shell's own pages ({ path, title, group, slug? }), whose cards a production
 * build writes into `share/`.
 */
function shellConfig({ dir, production, port = 3000, devProxy, shareCards = [] }) {
  const pkg = require(path.join(dir, 'package.json'));
  const config = base({ dir, production, uniqueName: 'shell' });
  return {
    ...config,
    optimization: {
      ...config.optimization,
      // Libraries in chunks of their own, so a change to the shell's code leaves them cached.
      splitChunks: { chunks: 'all' },
    },
    output: {
      ...config.output,
      // What a visitor may fetch, and nothing else: the Node build is beside it, in dist/server/.
      path: path.join(dir, 'dist', 'public'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
    },
    plugins: [
      // The shell is a runtime-only host (src/federation/runtime.ts): the federation runtime is a
      // chunk of its own, loaded with the first remote page, and what it shares is declared here.
      new DefinePlugin({
        __FEDERATION_SHARED__: JSON.stringify(hostShared(pkg, dir)),
        // The runtime's own switches, as the federation plugin sets them for a browser build.
        ENV_TARGET: JSON.stringify('web'),
        FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN: true,
      }),
      chunkGroupsPlugin(),
      new HtmlWebpackPlugin({
        template: './src/index.html',
        // Copied into the build and linked from the page.
        favicon: './public/favicon.svg',
        scriptLoading: 'defer',
        inject: 'body',
      }),
      ...(production && shareCards.length > 0 ? [shareCardPlugin(shareCards)] : []),
      ...precompress(production),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
      }),
    ],
    devServer: {
      port,
      historyApiFallback: true,
      hot: true,
      static: devProxy?.static ?? [],
      proxy: devProxy?.proxy ?? [],
    },
  };
}

/** The shell's Node build: its pages and the layout, rendered by the site server. */
function shellServerConfig({ dir, production }) {
  const config = serverConfig({
    dir,
    production,
    uniqueName: 'shell',
    entry: './src/server/render.tsx',
    outputPath: path.join(dir, 'dist', 'server'),
    filename: 'render.js',
  });
  const pkg = require(path.join(dir, 'package.json'));
  // What the shell provides, so the site server can refuse a remote that needs more.
  config.plugins.push(
    new DefinePlugin({ __FEDERATION_SHARED__: JSON.stringify(hostShared(pkg, dir)) }),
  );
  return config;
}

/** A remote: its pages behind one exposed module, in a folder named by its version. */
function remoteConfig({ dir, production, standaloneHtml = false }) {
  const browser = remoteBrowserConfig({ dir, production, standaloneHtml });
  if (standaloneHtml) return browser;
  const pkg = require(path.join(dir, 'package.json'));
  // The same pages built for Node, in the version folder beside the browser's files, so a deploy
  // of the folder carries the pages' server render with it.
  const server = serverConfig({
    dir,
    production,
    uniqueName: browser.output.uniqueName,
    entry: EXPOSED_PAGES,
    outputPath: path.join(dir, 'dist', pkg.version, 'server'),
    filename: 'pages.js',
    provided: PROVIDED,
  });
  if (production) {
    // What the version folder was built from and holds, once both builds have written to it.
    const record = buildRecordPlugin({
      folder: browser.output.path,
      version: pkg.version,
      sources: () => sourcesDigest(dir),
    });
    browser.plugins.push(record);
    server.plugins.push(record);
  }
  return [browser, server];
}

/** The chunk of a remote's exposed module, named so its files can be found and listed. */
const EXPOSE_CHUNK = '__federation_expose_pages';

/**
 * How a remote becomes a federation container. The build the shell loads is a plain container
 * (webpack's own plugin): `init(shareScope)` and `get('./pages')`, with the shared singletons
 * taken from the scope the shell's federation runtime hands it. The shell's runtime drives it, so
 * the remote carries no federation runtime of its own: its remoteEntry.js is the webpack runtime,
 * the share negotiation and the module map, about 3.5 KB gzip (the enhanced plugin's bundler
 * runtime made it 8 KB even with the runtime core taken from the shell). `mf-manifest.json` is
 * written beside it in the federation manifest format. The standalone frame of `npm run dev` has
 * no shell and keeps the enhanced plugin with a runtime of its own.
 */
function remoteFederation({ remote, pkg, standaloneHtml }) {
  const shared = sharedModules(pkg);
  if (standaloneHtml) {
    return [
      new ModuleFederationPlugin({
        name: remote.name,
        filename: 'remoteEntry.js',
        exposes: { './pages': EXPOSED_PAGES },
        shared,
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: { fileName: 'mf-manifest.json' },
        experiments: { optimization: { disableSnapshot: true, target: 'web' } },
      }),
    ];
  }
  return [
    new container.ModuleFederationPlugin({
      name: remote.name,
      filename: 'remoteEntry.js',
      exposes: { './pages': { import: EXPOSED_PAGES, name: EXPOSE_CHUNK } },
      shared,
    }),
    federationManifestPlugin({
      name: remote.name,
      exposeChunk: EXPOSE_CHUNK,
      exposePath: './pages',
      shared,
      buildName: pkg.name,
      buildVersion: pkg.version,
    }),
    new PinnedChunkLoadingPlugin(),
  ];
}

function remoteBrowserConfig({ dir, production, standaloneHtml }) {
  const pkg = require(path.join(dir, 'package.json'));
  // The route table names the remote, so a copy of the folder (a branch, a release candidate) builds
  // the same remote; the port is only for the local preview.
  const table = JSON.parse(fs.readFileSync(path.join(dir, 'src', 'routes.json'), 'utf8'));
  const port = Object.values(REMOTES).find((r) => r.name === table.remote)?.port ?? 3010;
  const remote = { name: table.remote, port };
  const config = base({ dir, production, uniqueName: remote.name });
  return {
    ...config,
    // The standalone frame (`npm run dev`) needs an entry; a production build is only the remote.
    entry: standaloneHtml ? { main: './src/dev/index.ts' } : {},
    output: {
      ...config.output,
      path: path.join(dir, 'dist', pkg.version),
      // Resolved from where remoteEntry.js was loaded, so the folder can live on any host.
      publicPath: 'auto',
      clean: { keep: /^server\// },
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
    },
    plugins: [
      ...remoteFederation({ remote, pkg, standaloneHtml }),
      routeTablePlugin(path.join(dir, 'src', 'routes.json'), { shareCards: production }),
      pageAssetsPlugin(dir),
      ...precompress(production && !standaloneHtml),
      ...(standaloneHtml
        ? [
            new HtmlWebpackPlugin({
              template: path.join(__dirname, 'dev', 'index.html'),
              publicPath: '/',
              chunks: ['main'],
            }),
            new MiniCssExtractPlugin(),
          ]
        : []),
    ],
    devServer: {
      port: remote.port,
      hot: true,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
    },
  };
}

module.exports = {
  shellConfig,
  shellServerConfig,
  remoteConfig,
};
