/**
 * The paths the site server answers itself, whatever the manifest says: no group may claim one, or
 * its pages would stand in for the shell's files (a page is looked up before a file), the API, the
 * manifest or the deploy API. The shell's own pages are checked beside the other groups' prefixes
 * (patch.ts).
 */
import { promises as fs } from 'node:fs';
import type { RouteTable } from '@site/contracts';
import { RefusedError, overlaps } from './patch';

/**
 * What the site server routes itself, besides whatever the shell's build puts at the root of its
 * public folder (read from the build: `reservedPaths`). `/404` is the path the "not found" page is
 * rendered at, for every unknown path: a group owning it would answer them all.
 */
export const SERVER_PATHS: readonly string[] = [
  '/api',
  '/assets',
  '/share',
  '/remotes.json',
  '/sitemap.xml',
  '/robots.txt',
  '/favicon.svg',
  '/404',
];

/** Every path under `/_` (`/_deploy`, `/_metrics`, `/_beacon`, `/_preview`, and any to come). */
const UNDERSCORE = /^\/_/;

/** The server's own paths and every file and folder at the root of the shell's public folder. */
export async function reservedPaths(publicDir: string): Promise<string[]> {
  const names = await fs.readdir(publicDir);
  return [...new Set([...SERVER_PATHS, ...names.map((name) => `/${name}`)])].sort();
}

/** A path as the site's file server reads it: percent-decoded, where it decodes. */
function spellings(value: string): string[] {
  try {
    const decoded = decodeURIComponent(value);
    return decoded === value ? [value] : [value, decoded];
  } catch {
    return [value];
  }
}

/** The reason a path may not be a group's, if it may not. */
function clash(value: string, reserved: readonly string[]): string | undefined {
  for (const spelled of spellings(value)) {
    if (UNDERSCORE.test(spelled)) return `it starts with "/_", which the site keeps for itself`;
    const taken = reserved.find((r) => overlaps(r, spelled));
    if (taken) return `it overlaps "${taken}", which the site serves itself`;
  }
  return undefined;
}

/**
 * Refuses a route table whose prefixes or paths reach a path the site serves itself (422
 * `reserved_path`, naming it). Values that are not strings are left to the manifest's parser.
 */
export function refuseReserved(table: RouteTable, reserved: readonly string[]): void {
  const prefixes = Array.isArray(table.prefixes) ? table.prefixes : [];
  const routes = Array.isArray(table.routes) ? table.routes : [];
  const claimed: [string, unknown][] = [
    ...prefixes.map((p): [string, unknown] => ['prefix', p]),
    ...routes.map((r): [string, unknown] => ['path', (r as { path?: unknown } | null)?.path]),
  ];
  for (const [what, value] of claimed) {
    if (typeof value !== 'string') continue;
    const reason = clash(value, reserved);
    if (reason) {
      throw new RefusedError(
        422,
        'reserved_path',
        `the ${what} "${value}" cannot be a group's: ${reason}; nothing was changed`,
      );
    }
  }
}
