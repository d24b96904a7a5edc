/**
 * A version's contents are fixed once built and once published, as `npm publish` fixes a package's:
 * what a deploy checks about the local version folder and the origin's copy before it uploads or
 * publishes anything, and the reasons it gives when it refuses.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  RECORD_FILE,
  differingFiles,
  folderDigests,
  parseRecord,
  readRecord,
  type BuildRecord,
} from '@site/build/webpack/build-record';

/** The local version folder: not built, built from the workspace's sources, or not to be used. */
export type LocalFolder =
  | { state: 'missing' }
  | { state: 'built'; record: BuildRecord }
  | { state: 'stale'; why: 'sources' | 'unrecorded' | 'changed'; files?: string[] };

/** What the origin holds of a version: nothing, a recorded build, or files without a record. */
export type OriginCopy =
  { held: false } | { held: true; record: BuildRecord } | { held: true; record?: undefined };

/** An origin that cannot tell what it holds: the deploy stops rather than guess. */
export class OriginError extends Error {
  override name = 'OriginError';
}

/** The local folder of `version`, against the digest of the workspace's sources now. */
export function inspectFolder(folder: string, version: string, sources: string): LocalFolder {
  if (!existsSync(folder)) return { state: 'missing' };
  let record: BuildRecord | undefined;
  try {
    record = readRecord(folder);
  } catch {
    record = undefined;
  }
  if (!record) return { state: 'stale', why: 'unrecorded' };
  if (record.version !== version || record.sources !== sources) {
    return { state: 'stale', why: 'sources' };
  }
  const files = differingFiles(record.files, folderDigests(folder));
  if (files.length > 0) return { state: 'stale', why: 'changed', files };
  return { state: 'built', record };
}

const TIMEOUT_MS = 10_000;

/** An error's message, whichever realm made it (fetch's errors may not be this realm's Error). */
const messageOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'message' in error
    ? String(error.message)
    : String(error);

async function get(url: string, origin: string, version: string): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    // fetch says only "fetch failed"; what failed (refused, not found, timed out) is its cause.
    const cause = (error as { cause?: unknown }).cause ?? error;
    throw new OriginError(
      `${origin} could not be reached to see whether it holds ${version} (${messageOf(cause)})`,
      { cause: error },
    );
  }
}

/**
 * What `<origin>/<version>/` holds, from its build record. A version published before versions
 * recorded their builds has files but no record: it counts as held, with contents unknown.
 */
export async function probeOrigin(origin: string, version: string): Promise<OriginCopy> {
  const url = `${origin}/${version}/${RECORD_FILE}`;
  const response = await get(url, origin, version);
  if (response.status === 200) {
    try {
      return { held: true, record: parseRecord(await response.json()) };
    } catch (error) {
      throw new OriginError(`${url} is not a build record (${messageOf(error)})`, {
        cause: error,
      });
    }
  }
  if (response.status === 404 || response.status === 410) {
    const entry = await get(`${origin}/${version}/remoteEntry.js`, origin, version);
    return entry.ok ? { held: true } : { held: false };
  }
  throw new OriginError(
    `${url} answered HTTP ${response.status}: cannot tell whether ${origin} holds ${version}`,
  );
}

const bump = (pkg: string) => `bump the version (npm version patch -w ${pkg}) and deploy again`;

const some = (files: string[]) =>
  `${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`;

/** Why a stale folder is refused, and what to do; `--rebuild` is offered only when it may be used. */
export function staleReason(
  local: Extract<LocalFolder, { state: 'stale' }>,
  { pkg, version, origin, held }: { pkg: string; version: string; origin: string; held: boolean },
): string {
  const folder = path.join('dist', version);
  const what = {
    sources: `${pkg} ${version} was built from other sources than the workspace holds now`,
    unrecorded: `${pkg} ${version} has no record of what it was built from (${path.join(folder, RECORD_FILE)})`,
    changed: `${folder} of ${pkg} was changed after it was built (${some(local.files ?? [])})`,
  }[local.why];
  const rebuild = held
    ? ''
    : `; or, as ${version} was never published at ${origin}, rebuild it: npm run deploy -w ${pkg} -- --rebuild`;
  return `${what}; a version's contents are fixed once built: ${bump(pkg)}${rebuild}`;
}

/** Why a version the origin holds cannot be deployed from this folder; undefined: it can. */
export function publishedReason(
  copy: OriginCopy,
  record: BuildRecord,
  { pkg, version, origin }: { pkg: string; version: string; origin: string },
): string | undefined {
  if (!copy.held) return undefined;
  const fixed = `a version's contents are fixed once published: ${bump(pkg)}`;
  if (!copy.record) {
    return `${origin} already serves ${pkg} ${version} without a build record (${RECORD_FILE}), so its contents cannot be compared with ${path.join('dist', version)}; ${fixed}`;
  }
  const files = differingFiles(copy.record.files, record.files);
  if (files.length === 0) return undefined;
  return `${pkg} ${version} was already published at ${origin} with other contents than ${path.join('dist', version)} (${files.length} ${files.length === 1 ? 'file differs' : 'files differ'}: ${some(files)}); ${fixed}`;
}

/** Why `--rebuild` is refused for a version the origin holds. */
export function rebuildReason({
  pkg,
  version,
  origin,
}: {
  pkg: string;
  version: string;
  origin: string;
}): string {
  return `${pkg} ${version} was already published at ${origin}, so it cannot be rebuilt; a version's contents are fixed once published: ${bump(pkg)}`;
}
