/**
 * `npm run static`: the checks that run no code. Formatting (Prettier), lint (ESLint), types (tsc,
 * each workspace and the scripts) and unused files and exports (knip), two at a time, the longest
 * first, each one's output shown whole when it ends. Every check runs whatever another one found;
 * the run ends by naming each one that failed.
 */
import path from 'node:path';
import { LANES, runInLanes, took, workspacesWith, type Command } from './lib/lanes';

const root = path.join(__dirname, '..');

async function main(): Promise<void> {
  const started = performance.now();
  const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
  const checks: Command[] = [
    { title: 'lint', command: bin('eslint'), args: ['.'] },
    { title: 'format', command: bin('prettier'), args: ['--check', '.'] },
    { title: 'unused files and exports', command: bin('knip'), args: ['--no-progress'] },
    ...workspacesWith(root, 'typecheck').map(({ name, location }) => ({
      title: `types: ${name}`,
      command: 'npm',
      args: ['run', 'typecheck', '-w', location],
    })),
    { title: 'types: scripts', command: bin('tsc'), args: ['--noEmit', '-p', 'scripts'] },
    {
      title: 'types: scripts tests',
      command: bin('tsc'),
      args: ['--noEmit', '-p', 'scripts/__tests__'],
    },
  ].map((check) => ({ ...check, cwd: root }));
  const failed = await runInLanes(checks, LANES);
  if (failed.length > 0) {
    console.error(`\nfailed: ${failed.join(', ')} (${took(started)})`);
    process.exit(1);
  }
  console.log(`\nformat, lint, types and unused code: passed (${took(started)})`);
}

void main();
