// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readFileSync } from 'node:fs';

/**
 * Import boundaries, enforced here rather than written in a wiki:
 * `shared` imports no other workspace; a remote imports only `shared` and its own files; the shell
 * reaches a remote only through the federated contract (never by import); the mail-service imports
 * only the shared contact schema.
 */
/** The page groups' workspace folders: the groups in the site table. */
const GROUPS = /** @type {{ remotes: { folder: string }[] }} */ (
  JSON.parse(readFileSync(new URL('./shared/contracts/site.json', import.meta.url), 'utf8'))
).remotes.map((r) => r.folder);

const otherWorkspaces = (own) =>
  ['shell', ...GROUPS, 'mail-service', 'tests']
    .filter((w) => w !== own)
    .flatMap((w) => [w, `${w}/*`, `**/${w}/**`, `../${w}`, `../../${w}`]);

const MESSAGE =
  'Workspaces meet only through the shared package and the federated contract (STYLE.md).';

const boundary = (files, own, { extra = [], regex } = {}) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: [...otherWorkspaces(own), ...extra], message: MESSAGE },
          ...(regex ? [{ regex, message: MESSAGE }] : []),
        ],
      },
    ],
  },
});

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
  boundary(['shared/**'], 'shared', { extra: ['@site/shared', '@site/shared/*'] }),
  // A remote reaches the router through @site/shared, so the browser holds one copy (federation.cjs).
  ...GROUPS.map((group) =>
    boundary([`${group}/**`], group, { extra: ['react-router', 'react-router-dom'] }),
  ),
  boundary(['shell/**'], 'shell'),
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
  // The mail-service takes only the contact schema and the company facts from shared (and, in its
  // tests, the embedded PostgreSQL), and nothing of the browser's.
  boundary(['mail-service/**'], 'mail-service', {
    extra: ['react', 'react-*', 'react/*'],
    regex: '^@site/shared(?!/(contact|company|testing/postgres)$)',
  }),
);
