/**
 * `npm test`: the whole suite, runnable right after `npm install`. Unit and component tests of
 * every workspace, then a production build of everything, then the browser tests against it.
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

step('unit and component tests', 'npm', ['run', 'test:unit']);
step('production build', 'npm', ['run', 'build']);
step('browser tests', 'npx', ['playwright', 'test'], path.join(root, 'tests'));
