/**
 * A deploy's build and upload steps: the version folder built from the workspace's sources now,
 * checked as fixed against what the origin holds, uploaded, and checked as served file for file.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { sha256Integrity } from '@site/contracts/integrity';
import { sourcesDigest } from '@site/build/webpack/build-record';
import { describeBucket, uploadFolder } from './bucket';
import { fail } from './deploy-fail';
import type { Settings } from '../deploy';
import {
  inspectFolder,
  probeOrigin,
  publishedReason,
  rebuildReason,
  staleReason,
} from './fixed-versions';

function build(workspace: string, name: string, version: string): void {
  console.log(`building ${name} ${version}…`);
  const built = spawnSync('npm', ['run', 'build'], { cwd: workspace, stdio: 'inherit' });
  if (built.status !== 0) fail('the build failed');
}

/**
 * Makes the version folder the origin serves the one built from the workspace's sources now, or
 * stops with the reason. Returns the SHA-256 pin of its Node build.
 */
export async function prepare(s: Settings): Promise<string> {
  const { workspace, pkg, name, origin } = s;
  const { version } = pkg;
  const folder = path.join(workspace, 'dist', version);
  let sources: string;
  try {
    sources = sourcesDigest(workspace);
  } catch (error) {
    fail(
      `cannot tell what ${name} ${version} is built from (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const about = { pkg: pkg.name, version, origin };

  const copy = await probeOrigin(origin, version);
  const local = inspectFolder(folder, version, sources);
  if (s.args.rebuild) {
    if (copy.held) fail(rebuildReason(about));
    rmSync(folder, { recursive: true, force: true });
    build(workspace, name, version);
  } else if (local.state === 'missing') {
    build(workspace, name, version);
  } else if (local.state === 'stale') {
    fail(staleReason(local, { ...about, held: copy.held }));
  }
  const built = inspectFolder(folder, version, sources);
  if (built.state !== 'built') {
    fail(`the build of ${name} ${version} left no build record in ${folder}: build it again`);
  }
  const refused = publishedReason(copy, built.record, about);
  if (refused) fail(refused);

  if (s.bucket) {
    try {
      const done = await uploadFolder(s.bucket, folder, version);
      console.log(
        `uploaded ${done.uploaded} files to ${describeBucket(s.bucket)}/${version}/` +
          (done.kept ? ` (${done.kept} were there already)` : ''),
      );
    } catch (error) {
      fail(
        `the upload to ${describeBucket(s.bucket)} failed (${error instanceof Error ? error.message : String(error)}); nothing was published: deploy again to resume it`,
      );
    }
  } else if (s.upload) {
    const uploaded = spawnSync(`${s.upload} ${JSON.stringify(folder)}`, {
      shell: true,
      stdio: 'inherit',
    });
    if (uploaded.status !== 0) fail(`the upload (${s.upload}) failed`);
  }
  const entry = `${origin}/${version}/remoteEntry.js`;
  const served = await fetch(entry).then(
    (r) => r.ok,
    () => false,
  );
  if (!served) {
    fail(
      `${entry} is not served: start the site with npm start (it serves each group's dist/), or set DEPLOY_BUCKET (or DEPLOY_UPLOAD) to upload the folder to ${origin}`,
    );
  }
  // What goes live is what the origin serves: it must be this build, file for file.
  const now = await probeOrigin(origin, version);
  if (!now.held || !now.record || publishedReason(now, built.record, about)) {
    fail(
      `${origin}/${version}/ does not serve ${path.join('dist', version)} as built (its build record differs): check the upload`,
    );
  }
  return sha256Integrity(readFileSync(path.join(folder, 'server', 'pages.js')));
}
