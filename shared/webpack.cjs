/**
 * The webpack configuration of the shell and of every remote, built from one function so that all
 * apps compile, share and name their files the same way.
 */
const path = require('node:path');
const fs = require('node:fs');
const { DefinePlugin } = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CssMinimizerPlugin = require('css-minimizer-webpack-plugin');
const { sharedModules, REMOTES } = require('./federation.cjs');

const rules = (production) => [
  {
    test: /\.tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'ts-loader',
      options: {
        transpileOnly: true,
        // The repository's settings, so any copy of a workspace (a branch, a CI checkout) builds alike.
        configFile: path.join(__dirname, '..', 'tsconfig.build.json'),
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

/** Emits the remote's route table beside its remoteEntry.js, validated against the contract. */
class RouteTablePlugin {
  constructor(file) {
    this.file = file;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RouteTablePlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        {
          name: 'RouteTablePlugin',
          stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONS,
        },
        () => {
          compilation.fileDependencies.add(this.file);
          const json = fs.readFileSync(this.file, 'utf8');
          const table = JSON.parse(json);
          if (!table.remote || !Array.isArray(table.routes) || !Array.isArray(table.prefixes)) {
            compilation.errors.push(new Error(`${this.file}: not a route table`));
          }
          compilation.emitAsset('routes.json', new compiler.webpack.sources.RawSource(json));
        },
      );
    });
  }
}

function base({ dir, production, uniqueName }) {
  return {
    context: dir,
    mode: production ? 'production' : 'development',
    devtool: production ? false : 'eval-cheap-module-source-map',
    entry: { main: './src/index.ts' },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // React Router's package points every bundler at its development build (warnings and all);
      // production builds take its production build instead.
      alias: production
        ? {
            'react-router$': path.join(
              path.dirname(require.resolve('react-router/package.json')),
              'dist/production/index.mjs',
            ),
          }
        : {},
    },
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
  const entry = (name, key = name) => ({
    version: installed(name),
    requiredVersion: modules[key].requiredVersion,
  });
  return {
    react: entry('react'),
    'react/jsx-runtime': entry('react', 'react/'),
    'react-dom': entry('react-dom'),
    '@site/shared': entry('@site/shared'),
  };
}

/** The host. Its remotes are not listed here: it finds them at run time in `/remotes.json`. */
function shellConfig({ dir, production, port = 3000, devProxy }) {
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
      path: path.join(dir, 'dist'),
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
      new HtmlWebpackPlugin({
        template: './src/index.html',
        scriptLoading: 'defer',
        inject: 'body',
      }),
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

/** A remote: its pages behind one exposed module, in a folder named by its version. */
function remoteConfig({ dir, production, standaloneHtml = false }) {
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
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
    },
    plugins: [
      new ModuleFederationPlugin({
        name: remote.name,
        filename: 'remoteEntry.js',
        exposes: { './pages': './src/pages/index.ts' },
        shared: sharedModules(pkg),
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: { fileName: 'mf-manifest.json' },
        experiments: {
          // The federation runtime comes from the shell (shell/src/federation/runtime.ts publishes
          // it), so each remoteEntry.js stays small: about 8 KB gzip instead of 24. The standalone
          // frame of `npm run dev` has no shell, so it keeps a runtime of its own.
          externalRuntime: !standaloneHtml,
          optimization: { disableSnapshot: true, target: 'web' },
        },
      }),
      new RouteTablePlugin(path.join(dir, 'src', 'routes.json')),
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

module.exports = { shellConfig, remoteConfig, RouteTablePlugin };
