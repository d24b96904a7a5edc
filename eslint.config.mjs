// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readFileSync } from 'node:fs';

/**
 * Import boundaries, enforced here rather than written in a wiki:
 * the packages under `shared/` import no app, and among themselves run one way: `@site/contracts`
 * and `@site/postgres` import nothing of ours, `@site/ui` only the contracts, `@site/build` the UI
 * and the contracts;
 * a remote imports only those packages and its own files; the shell reaches a remote only through
 * the federated contract (never by import); the mail-service imports only the contact schema,
 * the company facts and the PostgreSQL helpers; no app loads `@site/build` at run time (only its build and test files do).
 */
/** The page groups' workspace folders: the groups in the site table. */
const GROUPS = /** @type {{ remotes: { folder: string }[] }} */ (
  JSON.parse(readFileSync(new URL('./shared/contracts/site.json', import.meta.url), 'utf8'))
).remotes.map((r) => r.folder);

const otherWorkspaces = (own) =>
  ['shell', ...GROUPS, 'mail-service', 'tests', 'scripts']
    .filter((w) => w !== own)
    .flatMap((w) => [w, `${w}/*`, `**/${w}/**`, `../${w}`, `../../${w}`]);

const MESSAGE =
  'Workspaces and scripts meet only through the packages under shared/ and the federated contract (docs/architecture.md).';

/** Our packages under `shared/`, by folder, as their names and relative paths reach them. */
const sharedPackage = (name) => [`@site/${name}`, `@site/${name}/*`, `**/shared/${name}/**`];

/** The build's files and the tests of an app: the only ones that may load `@site/build`. */
const BUILD_TIME = [
  '**/__tests__/**',
  '**/*.test.{ts,tsx}',
  '**/jest.config.cjs',
  '**/webpack.config.js',
  '**/webpack/**',
  '**/src/dev/**',
];
const BUILD_MESSAGE =
  '@site/build is the build and test toolchain: no app loads it at run time (docs/architecture.md).';

/**
 * The import rule of a workspace or package: none of the other workspaces, nor `extra`, nor what
 * `regex` matches; with `runtime`, `@site/build` only in its build and test files.
 */
const boundary = (files, own, { extra = [], regex, runtime = false } = {}) => {
  const rule = (build) => ({
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: [...otherWorkspaces(own), ...extra], message: MESSAGE },
          ...(regex ? [{ regex, message: MESSAGE }] : []),
          ...(build ? [{ group: sharedPackage('build'), message: BUILD_MESSAGE }] : []),
        ],
      },
    ],
  });
  return runtime
    ? [
        { files, rules: rule(true) },
        {
          files: files.flatMap((f) => BUILD_TIME.map((t) => `${f.replace(/\/\*\*$/, '')}/${t}`)),
          rules: rule(false),
        },
      ]
    : [{ files, rules: rule(false) }];
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'deploy/**',
      '**/coverage/**',
      'tests/test-results/**',
      '**/.data/**',
      '**/mailbox/**',
      'tests/.shot.mjs',
      'tests/.tmp/**',
      'tests/.*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': 'allow-with-description', 'ts-nocheck': true },
      ],
    },
  },
  {
    files: ['**/*.cjs', '**/webpack.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: { sourceType: 'commonjs' },
  },
  // The contracts are plain TypeScript for servers and browsers alike: no React at run time (the
  // remote module's type names React's), nothing else of ours; their tests use the test fixtures.
  ...boundary(['shared/contracts/**'], 'shared', {
    extra: [...sharedPackage('ui'), ...sharedPackage('build'), 'react-dom', 'react-dom/*'],
  }),
  ...boundary(['shared/contracts/src/__tests__/**'], 'shared', {
    extra: [...sharedPackage('ui'), 'react', 'react-dom', 'react-dom/*'],
  }),
  ...boundary(['shared/ui/**'], 'shared', { extra: sharedPackage('build') }),
  // The PostgreSQL helpers (migrations, LISTEN) of the site server and the mail-service: pg only.
  ...boundary(['shared/postgres/**'], 'shared', {
    extra: [...sharedPackage('contracts'), ...sharedPackage('ui'), ...sharedPackage('build')],
  }),
  ...boundary(['shared/ui/jest.config.cjs'], 'shared'),
  ...boundary(['shared/build/**'], 'shared'),
  ...GROUPS.flatMap((group) => boundary([`${group}/**`], group, { runtime: true })),
  ...boundary(['shell/**'], 'shell', { runtime: true }),
  {
    // Layers inside the shell run one way: pages, the router and the entry points use components,
    // hooks, content and the federation loader, never the reverse; the browser's code never
    // imports the site server.
    files: ['shell/src/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: [
                './shell/src/components',
                './shell/src/hooks',
                './shell/src/content',
                './shell/src/federation',
              ],
              from: [
                './shell/src/pages',
                './shell/src/router.tsx',
                './shell/src/bootstrap.tsx',
                './shell/src/server',
              ],
              message:
                'Components, hooks, content and federation never import pages or the router.',
            },
            {
              target: './shell/src',
              from: './shell/server',
              message: 'The browser never imports the site server.',
            },
          ],
        },
      ],
    },
  },
  // The mail-service takes only the contact schema and its retention figures, TRUST_PROXY's forms,
  // the company facts, the limits, listen address and request log every server shares, the PostgreSQL
  // helpers and the DATABASE_URL setting from our packages (and, in its tests, the embedded
  // PostgreSQL), and nothing of the browser's.
  ...boundary(['mail-service/**'], 'mail-service', {
    extra: ['react', 'react-*', 'react/*'],
    regex:
      '^@site/(?!contracts/contact(/limits|/retention)?$|contracts/trust-proxy$|ui/company$|serving/(connections|listen|request-log|private-dir|signatures)$|postgres(/setting)?$|build/testing/postgres(-server)?$)',
    runtime: true,
  }),
  // The run scripts (build, start, deploy, bench) and the apps meet only through the packages
  // under shared/: a script imports no app's source, and no app imports a script (every app's rule
  // above names scripts/ among the other workspaces).
  ...boundary(['scripts/**'], 'scripts'),
);
