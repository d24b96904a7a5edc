/**
 * @jest-environment node
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeLeftBundleDirs } from '../render/pools';

let tmp: string;
beforeEach(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'bundle-dirs-'))));
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const folder = (name: string) => {
  mkdirSync(path.join(tmp, name));
  writeFileSync(path.join(tmp, name, 'render.js'), '// the shell’s Node build');
  return path.join(tmp, name);
};

test('the copies of site servers that ended without closing are removed; a running one’s are kept', async () => {
  // A process that has ended: its id is not in use (until the system gives it out again).
  const ended = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
    encoding: 'utf8',
  });
  const deadPid = Number(ended.stdout.trim());
  const left = folder(`site-render-${deadPid}-AbC123`);
  const mine = folder(`site-render-${process.pid}-XyZ789`);
  const other = folder('site-render-notapid');
  const unrelated = folder('something-else');

  await removeLeftBundleDirs(tmp);

  expect(existsSync(left)).toBe(false);
  expect(existsSync(mine)).toBe(true);
  expect(existsSync(other)).toBe(true);
  expect(existsSync(unrelated)).toBe(true);
});

test('a temporary folder that cannot be read is no reason not to start', async () => {
  await expect(removeLeftBundleDirs(path.join(tmp, 'missing'))).resolves.toBeUndefined();
});
