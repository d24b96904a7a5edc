/**
 * The pins of the files a group's pages load in the browser (@site/contracts browser-files.ts),
 * taken when an entry is deployed: each file is fetched from the version's origin (allowed origins
 * only, no redirect followed, within the size limit) and its SHA-384 recorded, so every page loads
 * it with `integrity`. A file that cannot be fetched, is too large or lies outside the version
 * folder refuses the deploy with the reason; so does one that differs from the pin the change
 * expects (the version that was live, for a rollback).
 */
import {
  MAX_PINNED_FILES,
  PINNED_PATH,
  browserFiles,
  type RemoteDeployment,
} from '@site/contracts';
import { sha384Integrity } from '@site/contracts/integrity';
import { RemoteFileError, fetchRemoteFile, type RemoteFetchOptions } from './remote-files';
import { RefusedError } from './patch';

/** The most bytes one pinned file may have: a page's script past this is a build gone wrong. */
export const PINNED_FILE_MAX_BYTES = 5 * 1024 * 1024;
/** Files fetched at once: a version's few dozen files quickly, without flooding its host. */
const PARALLEL = 6;

export interface FilePinOptions {
  allowed: ReadonlySet<string>;
  fetch: RemoteFetchOptions;
}

function refused(error: unknown, file: string): RefusedError {
  if (!(error instanceof RemoteFileError)) throw error;
  const code = error.code === 'too_large' ? 'file_too_large' : 'file_unreachable';
  return new RefusedError(
    error.code === 'not_allowed' ? 403 : 422,
    code,
    `${error.message}: every file the group's pages load is pinned at deploy, so ${file} must be served as built`,
  );
}

/**
 * The pins of the version at `entry`, from its federation manifest and page lists (already read by
 * the caller). `expected`, when the change names the pins it deploys, must be what is served.
 */
export async function pinFiles(
  entry: URL,
  federation: unknown,
  pageAssets: unknown,
  options: FilePinOptions,
  expected?: RemoteDeployment['files'],
): Promise<Record<string, string>> {
  const entryFile = entry.pathname.slice(entry.pathname.lastIndexOf('/') + 1);
  const files = browserFiles(entryFile, federation, pageAssets);
  const outside = files.find((file) => !PINNED_PATH.test(file));
  if (outside !== undefined) {
    throw new RefusedError(
      422,
      'invalid_entry',
      `the page file "${outside.slice(0, 200)}" is not a script or style sheet inside the version folder`,
    );
  }
  if (files.length > MAX_PINNED_FILES) {
    throw new RefusedError(
      422,
      'invalid_entry',
      `the group's pages load ${files.length} files; at most ${MAX_PINNED_FILES} can be pinned`,
    );
  }
  const fetchOptions = {
    ...options.fetch,
    maxBytes: Math.min(options.fetch.maxBytes, PINNED_FILE_MAX_BYTES),
  };
  const pins: Record<string, string> = {};
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const url = new URL(file, entry).href;
      let bytes: Buffer;
      try {
        bytes = (await fetchRemoteFile(url, options.allowed, 'the page file', fetchOptions)).bytes;
      } catch (error) {
        throw refused(error, file);
      }
      pins[file] = sha384Integrity(bytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, files.length) }, worker));
  const sorted = Object.fromEntries(files.map((file) => [file, pins[file]!]));
  if (expected) {
    const differs = Object.keys({ ...expected, ...sorted }).find(
      (file) => expected[file] !== sorted[file],
    );
    if (differs !== undefined) {
      throw new RefusedError(
        422,
        'contents_differ',
        `${new URL(differs, entry).href} is not the file this change names (expected ${expected[differs] ?? 'no such file'}, the origin serves ${sorted[differs] ?? 'none'}): a version's files must not change once deployed; build and deploy a new version`,
      );
    }
  }
  return sorted;
}
