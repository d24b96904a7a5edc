import {
  ManifestError,
  parseManifest,
  readManifest,
  type RemoteDeployment,
  type RouteTable,
} from '@site/contracts';
import { SHELL_PAGES } from '@site/contracts/site';

/** One remote's entry as a team publishes it. */
export interface PublishedEntry {
  name: string;
  entry: string;
  version: string;
  /** The pin of the version's Node build (`sha256-<base64>`). */
  serverIntegrity?: string;
  /** The pins of the files its pages load in the browser (file-pins.ts). */
  files?: Record<string, string>;
}

export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether two paths share pages: one is the other, or lies under it. */
export const overlaps = (a: string, b: string): boolean =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The manifest with one remote's entry replaced (or added), every other entry kept exactly as it
 * is, checked with the browser's own parser: the new entry must parse, stay inside its prefixes and
 * not collide with another group's prefixes, paths or the shell's own pages (no path of it, and no
 * prefix at or under one). Returns the new manifest's JSON text, or throws a RefusedError that
 * says why.
 */
export function patchManifest(
  liveJson: unknown,
  published: PublishedEntry,
  table: RouteTable,
  shellPaths: readonly string[],
  now = new Date(),
): { json: Record<string, unknown>; remote: RemoteDeployment } {
  if (table.remote !== published.name) {
    throw new RefusedError(
      422,
      'wrong_remote',
      `the route table at the entry's origin belongs to "${table.remote}", not "${published.name}"`,
    );
  }
  const raw = {
    name: published.name,
    entry: published.entry,
    version: published.version,
    prefixes: table.prefixes,
    routes: table.routes,
    ...(published.serverIntegrity ? { serverIntegrity: published.serverIntegrity } : {}),
    ...(published.files ? { files: published.files } : {}),
  };
  const liveRemotes =
    isObject(liveJson) && Array.isArray(liveJson.remotes) ? (liveJson.remotes as unknown[]) : [];
  const others = liveRemotes.filter((r) => !(isObject(r) && r.name === published.name));
  // The other groups as the site reads them now; an entry of theirs that is already set aside
  // does not stop this team's deploy.
  const good = readManifest({ schemaVersion: 1, remotes: others }).remotes;
  let remote: RemoteDeployment;
  try {
    remote = parseManifest({ schemaVersion: 1, remotes: [...good, raw] }).remotes.at(-1)!;
  } catch (error) {
    throw new RefusedError(
      422,
      'invalid_entry',
      `the new entry of "${published.name}" cannot go live: ${error instanceof ManifestError ? error.message : String(error)}`,
    );
  }
  for (const route of remote.routes) {
    if (shellPaths.includes(route.path)) {
      throw new RefusedError(
        422,
        'invalid_entry',
        `the path "${route.path}" is one of the shell's own pages`,
      );
    }
  }
  // The home page is above every path: only a prefix at or under another shell page overlaps it,
  // but for the services page, the hub of the groups, which live under it.
  for (const prefix of remote.prefixes) {
    const hub = prefix.startsWith(`${SHELL_PAGES.services}/`);
    const page = shellPaths.find((p) => p !== '/' && overlaps(p, prefix) && !hub);
    if (page) {
      throw new RefusedError(
        422,
        'invalid_entry',
        `the prefix "${prefix}" overlaps "${page}", one of the shell's own pages`,
      );
    }
  }
  const index = liveRemotes.findIndex((r) => isObject(r) && r.name === published.name);
  const remotes = [...liveRemotes];
  if (index === -1) remotes.push(raw);
  else remotes[index] = raw;
  return {
    json: {
      ...(isObject(liveJson) ? liveJson : {}),
      schemaVersion: 1,
      generatedAt: now.toISOString(),
      remotes,
    },
    remote,
  };
}
