const path = require('node:path');
const CopyPlugin = require('./webpack/copy-public.cjs');
const PreloadPlugin = require('./webpack/preload-plugin.cjs');
const { shellConfig } = require('@site/shared/webpack');

module.exports = (env, argv) => {
  const config = shellConfig({
    dir: __dirname,
    production: argv.mode === 'production',
    devProxy: {
      // `npm run dev`: the mail API goes to the mail-service, the manifest to the deploy folder.
      static: [
        { directory: path.join(__dirname, '..', 'deploy', 'dev'), publicPath: '/', watch: true },
      ],
      proxy: [{ context: ['/api'], target: 'http://localhost:3005' }],
    },
  });
  config.plugins.push(new CopyPlugin(path.join(__dirname, 'public')), new PreloadPlugin());
  return config;
};
