/**
 * Plugins that add files of their own to a build (a route table, share cards, the list of a page's
 * files, a sprite) are all the same plugin but for what they write: this makes one from a name, the
 * stage of asset processing it runs at, and the function that writes the files.
 */

/**
 * A webpack plugin named `name` that calls `emit({ compilation, add })` at `stage` (a
 * `PROCESS_ASSETS_STAGE_*` of webpack's Compilation, without the prefix: `'ADDITIONS'`,
 * `'SUMMARIZE'`…) of every compilation. `add(file, content, info)` adds a file with that content (a
 * string or a Buffer) and asset info; `emit` may return a promise.
 */
function assetsPlugin(name, stage, emit) {
  return {
    apply(compiler) {
      const { Compilation, sources } = compiler.webpack;
      const stageNumber = Compilation[`PROCESS_ASSETS_STAGE_${stage}`];
      if (stageNumber === undefined) throw new Error(`${name}: no asset stage ${stage}`);
      compiler.hooks.thisCompilation.tap(name, (compilation) => {
        const add = (file, content, info) =>
          compilation.emitAsset(file, new sources.RawSource(content), info);
        compilation.hooks.processAssets.tapPromise({ name, stage: stageNumber }, async () =>
          emit({ compilation, add }),
        );
      });
    },
  };
}

module.exports = { assetsPlugin };
