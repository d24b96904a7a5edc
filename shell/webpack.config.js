const path = require('node:path');
const CopyPlugin = require('./webpack/copy-public.cjs');
const PreloadPlugin = require('./webpack/preload-plugin.cjs');
const { shellConfig, shellServerConfig } = require('@site/shared/webpack');

module.exports = (env, argv) => {
  const production = argv.mode === 'production';
  const config = shellConfig({
    dir: __dirname,
    production,
    devProxy: {
      // `npm run dev`: the mail API goes to the mail-service, the manifest to the deploy folder.
      static: [
        { directory: path.join(__dirname, '..', 'deploy', 'dev'), publicPath: '/', watch: true },
      ],
      proxy: [{ context: ['/api'], target: 'http://localhost:3005' }],
    },
  });
  config.plugins.push(new CopyPlugin(path.join(__dirname, 'public')), new PreloadPlugin());
  // `npm run dev` renders in the browser only; a build also makes the server render (dist/server/).
  if (env.WEBPACK_SERVE) return config;
  return [config, shellServerConfig({ dir: __dirname, production })];
};
