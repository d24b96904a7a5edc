const path = require('node:path');
const PreloadPlugin = require('./webpack/preload-plugin.cjs');
const { DefinePlugin } = require('webpack');
const { shellConfig, shellServerConfig } = require('@site/build/webpack');
const { techMarksPlugin, techMarksSprite } = require('./webpack/tech-marks.cjs');
const { buildRecordPlugin, sourcesDigest } = require('@site/build/webpack/build-record');

/** The shell's own pages, for their share cards: titles from the same content as the pages. */
function shareCards() {
  const { require: requireTs } = require('tsx/cjs/api');
  const { shellRoutes: r } = requireTs('./src/content/shell-routes.ts', __filename);
  const { homeContent } = requireTs('./src/content/home.ts', __filename);
  const { company } = requireTs('@site/ui/company', __filename);
  return [
    { path: r.home.path, title: homeContent.hero.title, group: `Since ${company.foundingYear}` },
    { path: r.about.path, title: r.about.title, group: 'Company' },
    { path: r.contact.path, title: r.contact.title, group: 'Company' },
    { path: r.privacy.path, title: r.privacy.title, group: 'Company' },
    { path: '*', slug: 'not-found', title: r.notFound.title, group: 'Company' },
  ];
}

module.exports = (env, argv) => {
  const production = argv.mode === 'production';
  const config = shellConfig({
    dir: __dirname,
    production,
    shareCards: production ? shareCards() : [],
    devProxy: {
      // `npm run dev`: the mail API goes to the mail-service, the manifest to the deploy folder.
      static: [
        { directory: path.join(__dirname, '..', 'deploy', 'dev'), publicPath: '/', watch: true },
      ],
      proxy: [{ context: ['/api'], target: 'http://localhost:3005' }],
    },
  });
  const sprite = techMarksSprite();
  const spriteUrl = new DefinePlugin({ __TECH_MARKS__: JSON.stringify(`/${sprite.file}`) });
  config.plugins.push(new PreloadPlugin(), techMarksPlugin(sprite), spriteUrl);
  // `npm run dev` renders in the browser only; a build also makes the server render (dist/server/).
  if (env.WEBPACK_SERVE) return config;
  const server = shellServerConfig({ dir: __dirname, production });
  server.plugins.push(spriteUrl);
  if (production) {
    // `dist/build.json`: what the build was made from, so the site server's tests can tell a build
    // older than the sources (server/__tests__/global-setup.ts) and make it again.
    const record = buildRecordPlugin({
      folder: path.join(__dirname, 'dist'),
      version: require('./package.json').version,
      sources: () => sourcesDigest(__dirname),
    });
    config.plugins.push(record);
    server.plugins.push(record);
  }
  return [config, server];
};
