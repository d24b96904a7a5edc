/**
 * A version's build record: `build.json` in a remote's version folder, saying what the folder was
 * built from and what it holds, so a deploy can tell a folder built from the workspace's sources
 * from one left by an earlier build, and a version already published with other contents.
 *
 *   { "version": "1.1.0", "sources": "<sha-256 hex>", "files": { "remoteEntry.js": "<sha-256 hex>", … } }
 */
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');

const RECORD_FILE = 'build.json';

const sha256 = (content) => createHash('sha256').update(content).digest('hex');

/** Files only a test or the standalone frame reads, which never reach a production bundle. */
const notBuilt = (relative) =>
  /(^|\/)__tests__\//.test(relative) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(relative);

/** Every file under `dir` (relative, `/`-separated, sorted), skipping what `skip` rejects. */
function filesUnder(dir, skip = () => false, prefix = '') {
  if (!fs.existsSync(dir)) return [];
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = `${prefix}${entry.name}`;
    if (skip(relative)) continue;
    if (entry.isDirectory()) {
      files.push(...filesUnder(path.join(dir, entry.name), skip, `${relative}/`));
    } else if (entry.isFile()) {
      files.push(relative);
    }
  }
  return files.sort();
}

/**
 * The packages whose installed versions a build depends on, as `name@version` from the lockfile:
 * the closure, through dependencies, optional dependencies and peers (those installed), of `roots`
 * as they resolve from the lockfile entry `from`. Workspace links are followed, not recorded: their
 * sources are digested as files.
 */
function lockedPackages(lockfile, from, roots) {
  const packages = lockfile.packages ?? {};
  const resolve = (base, name) => {
    for (let at = base; ;) {
      const key = at ? `${at}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[key]) return key;
      if (!at) return undefined;
      const parent = at.lastIndexOf('/node_modules/');
      at = parent === -1 ? '' : at.slice(0, parent);
    }
  };
  const found = new Set();
  const seen = new Set();
  const visit = (base, name) => {
    let key = resolve(base, name);
    // Not installed: an optional peer nobody asked for, or a package this lockfile does not have.
    if (!key) return;
    if (packages[key].link) key = packages[key].resolved;
    if (seen.has(key)) return;
    seen.add(key);
    const entry = packages[key] ?? {};
    if (key.includes('node_modules/')) found.add(`${name}@${entry.version}`);
    for (const dep of Object.keys({
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...entry.peerDependencies,
    })) {
      visit(key, dep);
    }
  };
  for (const name of roots) visit(from, name);
  return [...found].sort();
}

/**
 * The packages the remote's build runs through, whose versions change what it writes: the
 * compiler and minifiers, the federation plugin, the loaders, the compressor, and the share-card
 * renderer and its font (shared/build/webpack.cjs, shared/build/share-card.cjs). A package the build starts
 * using belongs here; one that is not installed is left out.
 */
const BUILD_PACKAGES = [
  'webpack',
  '@module-federation/enhanced',
  'ts-loader',
  'typescript',
  'css-loader',
  'mini-css-extract-plugin',
  'css-minimizer-webpack-plugin',
  'satori',
  '@resvg/resvg-js',
  '@fontsource/inter',
  'compression-webpack-plugin',
];

/**
 * What a remote's version folder (or the shell's `dist/`) is built from, each input named the same wherever the workspace
 * lives (a copy of it on a branch or in CI digests the same):
 *
 * - the workspace: `package.json` (its version and dependency ranges reach mf-manifest.json),
 *   `webpack.config.js` and `src/**` (the route table, pages, content), but not its tests, and
 *   where it has them (the shell) `webpack/**` and `public/**`;
 * - `@site/ui`: in the browser it is a federation singleton, and the remote's build still compiles
 *   a fallback copy of it (and of the router it carries) into the version folder; in the Node build
 *   it is external, handed over by the site server. So its `src/**` (minus tests) and its
 *   `package.json` (its version is the singleton's) are inputs;
 * - `@site/contracts`, compiled into the bundles where a page uses it: its `src/**` (minus tests),
 *   `site.json` and `package.json`;
 * - `@site/build`, the build's own files: `webpack.cjs`, `federation.cjs`, `webpack/`,
 *   `share-card.cjs` and `package.json`. Its `dev/`, `src/` (the standalone frame and the test
 *   helpers) and Jest files are left out: only `npm run dev` and the tests read them;
 * - the repository's `tsconfig.json` and `tsconfig.build.json`, which ts-loader compiles with;
 * - the lockfile's versions of what is compiled into the bundles (the workspace's dependencies and
 *   the UI and contracts packages', with theirs: React's fallback copy, the router) and of the build's own
 *   packages (BUILD_PACKAGES): the same sources with another React or another minifier are other
 *   contents. The rest of the lockfile (linters, test tools, other workspaces') is not an input.
 *
 * Returns `[label, sha-256 hex]` pairs, sorted by label.
 */
function sourceInputs(workspaceDir) {
  const packageDir = (name) =>
    fs.realpathSync(
      path.dirname(require.resolve(`${name}/package.json`, { paths: [workspaceDir] })),
    );
  const packages = [
    ['ui', packageDir('@site/ui'), ['src']],
    ['contracts', packageDir('@site/contracts'), ['src']],
    ['build', packageDir('@site/build'), ['webpack']],
  ];
  // The packages live in `shared/<name>/` of the repository.
  const rootDir = path.resolve(packages[0][1], '..', '..');
  const inputs = [];
  const addFiles = (label, dir, files) => {
    for (const file of files) {
      inputs.push([`${label}/${file}`, sha256(fs.readFileSync(path.join(dir, file)))]);
    }
  };
  const present = (dir, files) => files.filter((f) => fs.existsSync(path.join(dir, f)));

  addFiles('workspace', workspaceDir, present(workspaceDir, ['package.json', 'webpack.config.js']));
  // `webpack/` (a workspace's own build plugins) and `public/` (files copied as they are) only where
  // a workspace has them: the shell does, the remotes do not.
  for (const folder of ['src', 'webpack', 'public']) {
    addFiles(
      'workspace',
      workspaceDir,
      filesUnder(path.join(workspaceDir, folder), notBuilt).map((f) => `${folder}/${f}`),
    );
  }
  for (const [label, dir, folders] of packages) {
    addFiles(
      label,
      dir,
      fs
        .readdirSync(dir, { withFileTypes: true })
        .filter(
          (e) => e.isFile() && /\.(cjs|json)$/.test(e.name) && !/^(jest|tsconfig)/.test(e.name),
        )
        .map((e) => e.name),
    );
    for (const folder of folders) {
      addFiles(
        label,
        dir,
        filesUnder(path.join(dir, folder), notBuilt).map((f) => `${folder}/${f}`),
      );
    }
  }
  addFiles('root', rootDir, present(rootDir, ['tsconfig.json', 'tsconfig.build.json']));

  const lockFile = path.join(rootDir, 'package-lock.json');
  if (!fs.existsSync(lockFile)) throw new Error(`no lockfile at ${lockFile}`);
  const lockfile = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
  const workspacePkg = JSON.parse(fs.readFileSync(path.join(workspaceDir, 'package.json'), 'utf8'));
  const relative = path.relative(rootDir, fs.realpathSync(workspaceDir)).split(path.sep).join('/');
  // A workspace resolves from its own lockfile entry; a copy of one outside the workspaces list
  // resolves from the root, as Node does for it.
  const from = lockfile.packages?.[relative] ? relative : '';
  for (const pkg of lockedPackages(lockfile, from, [
    ...Object.keys(workspacePkg.dependencies ?? {}),
    ...BUILD_PACKAGES,
  ])) {
    inputs.push([`package/${pkg}`, '']);
  }
  return inputs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One SHA-256 (hex) of everything a remote's version folder is built from (`sourceInputs`). */
function sourcesDigest(workspaceDir) {
  const hash = createHash('sha256');
  for (const [label, digest] of sourceInputs(workspaceDir)) hash.update(`${label}\0${digest}\n`);
  return hash.digest('hex');
}

/** The SHA-256 (hex) of every file in a version folder but its build record, by relative path. */
function folderDigests(folder) {
  return Object.fromEntries(
    filesUnder(folder, (relative) => relative === RECORD_FILE).map((file) => [
      file,
      sha256(fs.readFileSync(path.join(folder, file))),
    ]),
  );
}

const HEX = /^[0-9a-f]{64}$/;

/** A build record read from JSON, or an error saying what is wrong with it. */
function parseRecord(value) {
  const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) throw new Error('not a JSON object');
  const { version, sources, files } = value;
  if (typeof version !== 'string' || version === '') throw new Error('"version" is missing');
  if (typeof sources !== 'string' || !HEX.test(sources)) {
    throw new Error('"sources" is not a SHA-256 digest');
  }
  if (!isObject(files) || Object.keys(files).length === 0) throw new Error('"files" is missing');
  for (const [file, digest] of Object.entries(files)) {
    if (typeof digest !== 'string' || !HEX.test(digest)) {
      throw new Error(`the digest of "${file}" is not a SHA-256 digest`);
    }
  }
  return { version, sources, files: { ...files } };
}

/** The record of a version folder; undefined when it has none. */
function readRecord(folder) {
  const file = path.join(folder, RECORD_FILE);
  if (!fs.existsSync(file)) return undefined;
  try {
    return parseRecord(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (error) {
    throw new Error(`${file} is not a build record: ${error.message}`, { cause: error });
  }
}

/** The files two digest lists do not hold alike: changed, missing from one, or added. */
function differingFiles(a, b) {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((file) => a[file] !== b[file])
    .sort();
}

/** Writes `folder`'s record, replacing any earlier one in one step. */
function writeRecord(folder, record) {
  const file = path.join(folder, RECORD_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

/**
 * Writes `build.json` into `folder` once every compiler the plugin is applied to has finished
 * without errors. A remote's browser and Node builds are two compilers writing into the same
 * version folder, so one instance goes into both configurations and the record lists the files of
 * both, read from disk. `sources()` is the digest of the inputs: taken when the build starts and
 * again when it ends, so a source edited while the build ran is not recorded as built. The earlier
 * record is removed as soon as a build starts: a failed or interrupted build leaves none.
 */
function buildRecordPlugin({ folder, version, sources }) {
  const NAME = 'BuildRecordPlugin';
  const state = new Map();
  let started;
  const removeRecord = () => fs.rmSync(path.join(folder, RECORD_FILE), { force: true });

  return {
    apply(compiler) {
      state.set(compiler, 'idle');
      const logger = compiler.getInfrastructureLogger(NAME);
      const start = async () => {
        if (![...state.values()].includes('running')) {
          started = sources();
          removeRecord();
        }
        state.set(compiler, 'running');
      };
      compiler.hooks.run.tapPromise(NAME, start);
      compiler.hooks.watchRun.tapPromise(NAME, start);
      compiler.hooks.failed.tap(NAME, () => state.set(compiler, 'failed'));
      compiler.hooks.done.tap(NAME, (stats) => {
        state.set(compiler, stats.hasErrors() ? 'failed' : 'done');
        const states = [...state.values()];
        if (states.includes('running') || states.includes('idle')) return;
        if (states.includes('failed')) return;
        if (sources() !== started) {
          logger.warn(`the sources changed while ${version} was built: ${RECORD_FILE} not written`);
          return;
        }
        writeRecord(folder, { version, sources: started, files: folderDigests(folder) });
      });
    },
  };
}

module.exports = {
  RECORD_FILE,
  sourceInputs,
  sourcesDigest,
  folderDigests,
  parseRecord,
  readRecord,
  differingFiles,
  buildRecordPlugin,
};
