/**
 * Group deploy tokens: each page group's team deploys with a credential of its own, which moves
 * only the groups it names. The site's operator (DEPLOY_TOKEN) makes, rotates and revokes them
 * through the deploy API; the control plane keeps only their SHA-256 digests (tokens-files.ts for
 * one server, tokens-postgres.ts for replicas), looked up on every call, so a new, rotated or
 * revoked token holds on every replica from its next call.
 *
 * A token reads `gdt_<id>_<secret>`: the id (12 hex digits) names the credential in the history
 * and the listing and finds its record; the secret is 32 random bytes. Such a token is far beyond
 * guessing, so one unsalted SHA-256 of it is all the store needs (a password hash would only slow
 * every call); the digests are compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A group token as the operator sees it: never its secret. */
export interface GroupToken {
  id: string;
  /** The groups (federation names) it may change. */
  groups: string[];
  createdAt: string;
  /** When its secret was last replaced; the earlier secret stopped working then. */
  rotatedAt?: string;
  /** When it stopped working for good. */
  revokedAt?: string;
}

/** A token as it is kept: its record and the digest of its secret. */
export interface StoredToken extends GroupToken {
  /** SHA-256 of the whole token, hex. */
  digest: string;
}

/** A token just made or rotated: shown once, to the operator who asked. */
export interface IssuedToken {
  token: string;
  record: GroupToken;
}

export interface TokenStore {
  /** The live token's record when `token` is one (not revoked, its current secret), else undefined. */
  verify(token: string): Promise<GroupToken | undefined>;
  create(groups: readonly string[]): Promise<IssuedToken>;
  /** Every token ever made, revoked ones included (the history names them), oldest first. */
  list(): Promise<GroupToken[]>;
  /** A new secret for the token; undefined when there is no such token. Refused once revoked. */
  rotate(id: string): Promise<IssuedToken | undefined>;
  /** Ends the token for good; undefined when there is no such token. Revoking twice is harmless. */
  revoke(id: string): Promise<GroupToken | undefined>;
}

/** A token that was revoked cannot be given a new secret: make a new token instead. */
export class RevokedTokenError extends Error {
  override name = 'RevokedTokenError';
}

const TOKEN = /^gdt_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A new token's id and secret. */
export function newToken(id = randomBytes(6).toString('hex')): {
  id: string;
  token: string;
  digest: string;
} {
  const token = `gdt_${id}_${randomBytes(32).toString('base64url')}`;
  return { id, token, digest: sha256(token).toString('hex') };
}

/** The id a token claims, or undefined when it is not shaped like a group token at all. */
export const tokenId = (token: string): string | undefined => TOKEN.exec(token)?.[1];

/** Whether `token` is the one whose digest is kept, compared in constant time. */
export function matches(token: string, digest: string): boolean {
  const kept = Buffer.from(digest, 'hex');
  const given = sha256(token);
  return kept.length === given.length && timingSafeEqual(given, kept);
}

/** The record without its digest. */
export function publicRecord(stored: StoredToken): GroupToken {
  const { digest: _digest, ...record } = stored;
  return record;
}

/** How the history names a credential: `group:data#3f2a9c1b7d4e`. */
export const groupLabel = (record: Pick<GroupToken, 'id' | 'groups'>): string =>
  `group:${record.groups.join('+')}#${record.id}`;

/** The record of a live token, given a way to find a stored token by its id. */
export async function verifyWith(
  token: string,
  find: (id: string) => Promise<StoredToken | undefined>,
): Promise<GroupToken | undefined> {
  const id = tokenId(token);
  if (id === undefined) return undefined;
  const stored = await find(id);
  if (!stored || stored.revokedAt !== undefined) return undefined;
  return matches(token, stored.digest) ? publicRecord(stored) : undefined;
}
