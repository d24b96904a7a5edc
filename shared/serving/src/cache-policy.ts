import path from 'node:path';

/** Revalidate on every use: for whatever can change in place (pages, the manifest). */
export const REVALIDATE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A 10-hex-digit content hash in the file name, as the webpack builds write them. */
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+(\.(br|gz))?$/;

/** The cache policy of a built file: forever when its name changes with its content. */
export const filePolicy = (file: string): string =>
  HASHED.test(path.basename(file)) ? IMMUTABLE : REVALIDATE;
