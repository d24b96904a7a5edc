const HtmlWebpackPlugin = require('html-webpack-plugin');

/**
 * Adds a preload of the Latin subset of the web font to the page's head, so text renders in it
 * from the first paint instead of swapping later.
 */
module.exports = class PreloadPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadPlugin', (data) => {
        const publicPath =
          compilation.outputOptions.publicPath === 'auto'
            ? '/'
            : compilation.outputOptions.publicPath;
        const font = Object.keys(compilation.assets).find((name) =>
          /inter-latin-wght-normal\.[0-9a-f]+\.woff2$/.test(name),
        );
        const link = (attributes) => ({
          tagName: 'link',
          voidTag: true,
          meta: { plugin: 'PreloadPlugin' },
          attributes,
        });
        if (font) {
          data.headTags.unshift(
            link({
              rel: 'preload',
              href: `${publicPath}${font}`,
              as: 'font',
              type: 'font/woff2',
              crossorigin: '',
            }),
          );
        }
        return data;
      });
    });
  }
};
