/**
 * A remote's chunk loader (webpack's `__webpack_require__.l`, which creates the script tags of the
 * chunks its entry loads) gives each script the pin the page holds for its URL: the shell puts the
 * pins of the manifest it was composed with under this global (shell/src/federation/pins.ts),
 * taken by the deploy API from the files as they were deployed. The browser then refuses a chunk
 * changed on the group's host since, as it refuses a changed entry. A URL without a pin (a
 * development build, a manifest from before pinning) loads as before.
 */
const PINS_GLOBAL = '__site_pins';

class PinnedChunkLoadingPlugin {
  apply(compiler) {
    const { LoadScriptRuntimeModule } = compiler.webpack.runtime;
    compiler.hooks.thisCompilation.tap('PinnedChunkLoadingPlugin', (compilation) => {
      LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(
        'PinnedChunkLoadingPlugin',
        (source) =>
          `${source}\nvar pin = (self.${PINS_GLOBAL} || {})[script.src];\nif (pin) { script.integrity = pin; script.crossOrigin = 'anonymous'; }`,
      );
    });
  }
}

module.exports = { PinnedChunkLoadingPlugin, PINS_GLOBAL };
