import { createHash } from 'node:crypto';

/**
 * The SHA-256 of a file in Subresource Integrity form (`sha256-<base64>`): how a manifest entry pins
 * its version's Node build. For Node only (the browser never checks it).
 */
export const sha256Integrity = (data: Uint8Array | string): string =>
  `sha256-${createHash('sha256').update(data).digest('base64')}`;

/**
 * The SHA-384 of a file in Subresource Integrity form (`sha384-<base64>`): how a manifest entry pins
 * each file its pages load in the browser, which the browser checks before it runs one.
 */
export const sha384Integrity = (data: Uint8Array | string): string =>
  `sha384-${createHash('sha384').update(data).digest('base64')}`;
