/**
 * Lints code that is never written to disk with ESLint's own API and the repository's
 * eslint.config.mjs, in a process of its own (ESLint loads its configuration as an ES module, which
 * Jest's module system does not). Reads `[{ filePath, code }]` as JSON on stdin, prints each one's
 * `no-restricted-imports` messages as JSON on stdout.
 *
 *   node --import tsx scripts/__tests__/support/lint-text.ts < cases.json
 */
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { ESLint } from 'eslint';

const root = path.join(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  const cases = JSON.parse(await text(process.stdin)) as { filePath: string; code: string }[];
  const eslint = new ESLint({ cwd: root });
  const out: string[][] = [];
  for (const { filePath, code } of cases) {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
    out.push(
      (result?.messages ?? [])
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => m.message),
    );
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
