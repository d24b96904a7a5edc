/**
 * Makes the production builds the site server's tests read current: the shell's (`shell/dist/`)
 * and each group's version folder. A build is made again when it is missing or older than its
 * sources: its record (`build.json`) names the digest of what it was made from. Run by
 * global-setup.ts under flock(1), so that two Jest shards starting together never build at once
 * (the second finds the first's builds current).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { readRecord, sourcesDigest } = require('@site/build/webpack/build-record');
const site = require('@site/contracts/site.json');

const ROOT = path.join(__dirname, '..', '..', '..');

/** Where a workspace's build and its record are: the shell's `dist/`, a group's version folder. */
function buildFolder(workspace) {
  const dir = path.join(ROOT, workspace);
  if (workspace === 'shell') return path.join(dir, 'dist');
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return path.join(dir, 'dist', version);
}

/** Why `workspace` must be built before the tests, or undefined when its build is current. */
function buildProblem(workspace) {
  let record;
  try {
    record = readRecord(buildFolder(workspace));
  } catch (error) {
    return error.message;
  }
  if (!record) return 'not built yet';
  if (record.sources !== sourcesDigest(path.join(ROOT, workspace))) {
    return 'its sources changed since it was built';
  }
  return undefined;
}

for (const workspace of ['shell', ...site.remotes.map((r) => r.folder)]) {
  const problem = buildProblem(workspace);
  if (!problem) continue;
  console.log(
    `\n${workspace}: ${problem}: building it for these tests (npm run build -w ${workspace})`,
  );
  execFileSync('npm', ['run', 'build', '-w', workspace], { cwd: ROOT, stdio: 'inherit' });
}
