/**
 * A group's version as a team might have built it differently: a copy of the built version folder
 * with its browser scripts changed, as a deploy would carry them (their pins are taken from the
 * changed files). Only the browser's files change; the Node build (`server/`) is left as built.
 */
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SITE_REMOTES } from '@site/contracts/site';
import { ROOT } from './deployment';

/**
 * Copies `group`'s built 1.0.0 to a version `version` of a dist folder of its own, with `change`
 * applied to every top-level script, and returns the dist folder and how many scripts changed.
 */
export function alteredVersion(
  group: string,
  version: string,
  change: (code: string, file: string) => string,
): { dist: string; changed: number } {
  const folder = SITE_REMOTES.find((r) => r.name === group)?.folder;
  if (!folder) throw new Error(`no group called ${group}`);
  const dist = path.join(ROOT, 'tests', '.tmp', `${group}-altered-${process.pid}-${Date.now()}`);
  const target = path.join(dist, version);
  cpSync(path.join(ROOT, folder, 'dist', '1.0.0'), target, { recursive: true });
  let changed = 0;
  for (const file of readdirSync(target).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(path.join(target, file), 'utf8');
    const next = change(code, file);
    if (next === code) continue;
    changed += 1;
    writeFileSync(path.join(target, file), next);
    // The host serves a file's compressed copies where they exist: they go with the change.
    rmSync(path.join(target, `${file}.gz`), { force: true });
    rmSync(path.join(target, `${file}.br`), { force: true });
  }
  return { dist, changed };
}
