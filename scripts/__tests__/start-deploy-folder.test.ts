import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm start` makes a checkout's deploy folder on its first run (the site server itself refuses a
 * missing one), one level deep: a DEPLOY_DIR that is a file, or whose parent does not exist (a
 * typo), stops it at once with the variable named, before anything is built or started.
 */

const START = path.join(__dirname, '..', 'start.ts');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'start-deploy-dir-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (deployDir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', START], {
    env: { ...process.env, DEPLOY_DIR: deployDir },
    encoding: 'utf8',
    timeout: 30_000,
  });

test.each([
  [
    'a file',
    () => {
      writeFileSync(path.join(dir, 'a-file'), 'x');
      return path.join(dir, 'a-file');
    },
    /^start: DEPLOY_DIR: \S+a-file is a file, not a folder$/m,
  ],
  [
    'under a folder that does not exist',
    () => path.join(dir, 'deplyo', 'live'),
    /^start: DEPLOY_DIR: \S+deplyo\/live cannot be made: \S+deplyo does not exist$/m,
  ],
])('DEPLOY_DIR %s: refused at once, naming it, with exit code 78', (_what, deployDir, message) => {
  const target = deployDir();
  const result = start(target);
  expect({ status: result.status, stderr: result.stderr }).toEqual({
    status: 78,
    stderr: expect.stringMatching(message),
  });
  // Nothing was built or started first.
  expect(result.stdout).not.toMatch(/building|The site is at/);
  expect(existsSync(path.join(dir, 'deplyo'))).toBe(false);
});
