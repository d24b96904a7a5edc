/**
 * A fresh clone of the repository that runs without a fresh install: its `node_modules` links to
 * this checkout's installed packages (one link per package; the workspaces' own links point into
 * the clone, so the clone's sources are what runs), and the builds this checkout has are copied
 * in, so a test pays for the builds it is about, not the others. Linux and macOS (symbolic links).
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';

/**
 * `node_modules` of `clone` entry by entry from `from`'s: a workspace link (relative, into the
 * checkout) as the same relative link, so it names the clone's own folder; anything else as a link
 * to the installed package. Build caches are left out, so the clone never writes into them.
 */
function linkModules(from: string, to: string, checkout: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.cache' || name === '.package-lock.json') continue;
    const source = path.join(from, name);
    const target = path.join(to, name);
    const stat = lstatSync(source);
    if (name.startsWith('@') && stat.isDirectory()) {
      linkModules(source, target, checkout);
      continue;
    }
    if (stat.isSymbolicLink()) {
      const link = readlinkSync(source);
      const resolved = path.resolve(from, link);
      const inWorkspace =
        !path.isAbsolute(link) &&
        resolved.startsWith(`${checkout}${path.sep}`) &&
        !resolved.includes(`${path.sep}node_modules${path.sep}`);
      symlinkSync(inWorkspace ? link : resolved, target);
      continue;
    }
    symlinkSync(source, target);
  }
}

/**
 * Clones `checkout` (its last commit) into `clone`, links its packages and copies the shell's and
 * every group's builds. Resolves with the clone's path.
 */
export function scratchClone(checkout: string, clone: string): string {
  execFileSync('git', ['clone', '--quiet', checkout, clone]);
  linkModules(path.join(checkout, 'node_modules'), path.join(clone, 'node_modules'), checkout);
  for (const entry of readdirSync(checkout, { withFileTypes: true })) {
    if (!entry.isDirectory() || !existsSync(path.join(clone, entry.name, 'package.json'))) continue;
    const own = path.join(checkout, entry.name, 'node_modules');
    // A workspace's own packages (those that could not be hoisted), not a group's build caches.
    if (existsSync(own) && !entry.name.startsWith('mfe-')) {
      symlinkSync(own, path.join(clone, entry.name, 'node_modules'));
    }
    const dist = path.join(checkout, entry.name, 'dist');
    if (existsSync(dist)) cpSync(dist, path.join(clone, entry.name, 'dist'), { recursive: true });
  }
  return clone;
}
