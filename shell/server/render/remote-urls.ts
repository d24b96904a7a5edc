import type { RemoteRef } from '../render-types';

/** The remote's Node build, the one file of a version folder a render process runs. */
export const SERVER_BUILD = 'server/pages.js';

/**
 * The files of a remote's version folder a render process may ask for: its Node build and the
 * two lists its page's preloads are read from.
 */
export const REMOTE_FILES = [SERVER_BUILD, 'mf-manifest.json', 'page-assets.json'] as const;
export type RemoteFile = (typeof REMOTE_FILES)[number];

/** The URL of a file in a remote's version folder (where its remoteEntry.js is). */
export const remoteFileUrl = (remote: Pick<RemoteRef, 'entry'>, file: string): string =>
  new URL(file, remote.entry).href;
