const { remoteConfig } = require('@site/build/webpack');

module.exports = (env, argv) =>
  remoteConfig({
    dir: __dirname,
    production: argv.mode === 'production',
    // `npm run dev`: the pages in a minimal frame of their own, without the shell.
    standaloneHtml: Boolean(env.WEBPACK_SERVE),
  });
