import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The import boundaries of eslint.config.mjs, run through ESLint's own API (`lintText`, in a
 * process of its own: support/lint-text.ts) on code that is never written to disk: a script that
 * reaches into an app's source, and an app that reaches into a script, are refused; an import
 * through the packages under shared/ is not.
 */
const root = path.join(__dirname, '..', '..');

const BOUNDARY = /meet only through the packages under shared\//;
const RUNTIME = /no app loads it at run time/;

const use = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;

/** [file the code is linted as, imported specifier, what ESLint says (none: allowed)]. */
const CASES: [string, string, RegExp | null][] = [
  // A script does not reach into an app's source...
  ['scripts/example.ts', '../shell/server/x', BOUNDARY],
  ['scripts/bench/example.ts', '../../mail-service/src/config', BOUNDARY],
  ['scripts/lib/example.ts', '../../mfe-data/src/routes', BOUNDARY],
  // ...nor an app into a script's.
  ['shell/server/example.ts', '../../scripts/lib/x', BOUNDARY],
  ['mfe-data/src/example.ts', '../../scripts/lib/x', BOUNDARY],
  ['mail-service/src/example.ts', '../../scripts/serve-remote', BOUNDARY],
  // Both meet through the packages under shared/.
  ['scripts/example.ts', '@site/serving', null],
  ['scripts/example.ts', '@site/contracts/site', null],
  ['shell/server/example.ts', '@site/serving', null],
  // The packages run one way: contracts <- ui <- build.
  ['shared/contracts/src/example.ts', '@site/ui', BOUNDARY],
  ['shared/ui/src/example.ts', '@site/contracts', null],
  ['shared/ui/src/example.ts', '@site/build/dev', BOUNDARY],
  ['shared/build/src/example.ts', '@site/ui', null],
  // An app loads @site/build in its build and test files, never at run time.
  ['shell/server/example.ts', '@site/build/testing/manifest', RUNTIME],
  ['shell/server/__tests__/example.test.ts', '@site/build/testing/manifest', null],
  ['mfe-data/src/pages/example.ts', '@site/build/dev', RUNTIME],
  ['mfe-data/src/dev/example.ts', '@site/build/dev', null],
];

let results: string[][] = [];
beforeAll(() => {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'support', 'lint-text.ts')],
    {
      cwd: root,
      input: JSON.stringify(
        CASES.map(([filePath, specifier]) => ({ filePath, code: use(specifier) })),
      ),
      encoding: 'utf8',
    },
  );
  results = JSON.parse(out) as string[][];
}, 60_000);

describe('import boundaries', () => {
  test.each(
    CASES.map(([file, specifier, expected], i) => ({
      file,
      specifier,
      expected,
      i,
      outcome: expected ? 'refused' : 'allowed',
    })),
  )('$file importing $specifier: $outcome', ({ expected, i }) => {
    const messages = results[i];
    if (expected === null) expect(messages).toEqual([]);
    else expect(messages).toEqual([expect.stringMatching(expected)]);
  });
});
