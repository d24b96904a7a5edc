/**
 * The builds the bed serves and plants secrets beside: the shell's Node build and public folder,
 * the files under a folder as URL paths, and a workspace's version.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../deployment';

/** The folder of the shell's Node build: wherever under shell/ render.js sits beside chunks.json. */
export function shellServerBuild(): string {
  const shell = path.join(ROOT, 'shell');
  const search = (dir: string, depth: number): string | null => {
    if (existsSync(path.join(dir, 'render.js')) && existsSync(path.join(dir, 'chunks.json')))
      return dir;
    if (depth === 0) return null;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || ['node_modules', 'src', '.git'].includes(entry.name)) continue;
      const found = search(path.join(dir, entry.name), depth - 1);
      if (found) return found;
    }
    return null;
  };
  const found = search(shell, 3);
  if (!found)
    throw new Error(
      'the shell is not built: no render.js beside chunks.json under shell/ (npm run build -w shell)',
    );
  return found;
}

/** The folder the site serves the shell's files from: dist/public beside the Node build, or dist. */
export function shellPublicFolder(): string {
  const dist = path.join(ROOT, 'shell', 'dist');
  return existsSync(path.join(dist, 'public', 'index.html')) ? path.join(dist, 'public') : dist;
}

export const firstBytes = (file: string, n = 64) => readFileSync(file).subarray(0, n);

/** Every file under `dir`, as URL paths from `dir`. */
export function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out;
}

export function version(folder: string): string {
  return (
    JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { version: string }
  ).version;
}
