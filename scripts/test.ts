/**
 * `npm test`: the whole suite, runnable right after `npm install`. A production build of
 * everything, then the unit, component and server tests of every workspace (some run the real
 * builds: the site server's render processes, the deploy checks), then the browser tests.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '..');

function step(title: string, command: string, args: string[], cwd = root): void {
  console.log(`\n=== ${title}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n${title}: failed`);
    process.exit(result.status ?? 1);
  }
}

step('production build', 'npm', ['run', 'build']);
step('unit and component tests', 'npm', ['run', 'test:unit']);
step('browser tests', 'npx', ['playwright', 'test'], path.join(root, 'tests'));
