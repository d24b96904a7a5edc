/**
 * What the shell and every remote share at run time, in one place. Each entry is a singleton so the
 * browser downloads React, React DOM and the site's UI package once, whichever page it enters by.
 * `requiredVersion` is a range: a remote built against another patch or minor runs on the shell's
 * copy, and a real mismatch is reported (a warning from the remote's share runtime) instead of
 * being loaded twice. The remotes use these with the container plugin; the shell, a runtime-only
 * host, provides its own copies at the same ranges (shared/build/webpack.cjs `hostShared`,
 * shell/src/federation/runtime.ts).
 * Nothing is `eager`: the async boundary in each remote's entry lets the runtime negotiate
 * versions before any shared module runs.
 *
 * The router is part of the UI package (shared/ui/src/router.tsx), so it is a singleton with it:
 * the shell's location and the remotes' links are one router.
 */
const uiPkg = require('@site/ui/package.json');

function sharedModules(appPkg) {
  const deps = appPkg.dependencies || {};
  const single = (name, fallbackRange) => ({
    singleton: true,
    requiredVersion: deps[name] || fallbackRange,
  });
  return {
    react: single('react', '^19.2.0'),
    'react/': single('react', '^19.2.0'),
    'react-dom': single('react-dom', '^19.2.0'),
    'react-dom/': single('react-dom', '^19.2.0'),
    '@site/ui': {
      singleton: true,
      requiredVersion: `^${uiPkg.version}`,
      version: uiPkg.version,
    },
  };
}

/**
 * The modules the shell provides to its remotes, in the browser (federation singletons) and on the
 * server (the site server hands a remote's Node build these same modules when it renders a page).
 */
const PROVIDED = ['react', 'react/jsx-runtime', 'react-dom', '@site/ui'];

/** Federation names and local ports of the remotes, by workspace folder (from `site.json`). */
const REMOTES = Object.fromEntries(
  require('@site/contracts/site.json').remotes.map((r) => [
    r.folder,
    { name: r.name, port: r.port },
  ]),
);

module.exports = { sharedModules, REMOTES, PROVIDED };
