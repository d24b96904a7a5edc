/**
 * The control plane: where the live deployment manifest and the history of its changes are kept.
 * One site server keeps them in files beside each other (files.ts); replicas share them in
 * PostgreSQL (postgres.ts). Either way a change is a compare-and-swap against the version it was
 * made from, and the manifest goes live together with the history entry that says why. The
 * groups' deploy tokens are kept there too, as digests (tokens.ts).
 */
import { createHash } from 'node:crypto';
import { pageManifestJson, readManifest, type DeploymentManifest } from '@site/contracts';
import type { HistoryEntry } from '../deploy/history';
import { readCanaries, type Canary } from '../canary/entries';
import type { TokenStore } from './tokens';

export interface LiveManifest {
  /** Content hash: every page composed from this manifest is cached under it. */
  version: string;
  text: string;
  /**
   * The manifest's JSON, parsed once per version and frozen: a change copies what it changes
   * (the top-level keys) and never parses the text again.
   */
  json: Readonly<Record<string, unknown>>;
  /** What of the manifest a page carries (page-manifest.ts), as JSON safe in a script element. */
  embedded: string;
  manifest: DeploymentManifest;
  /** Every path a remote owns. */
  paths: Set<string>;
  /** Prefixes of groups whose entries could not be read: their paths answer 503. */
  unavailablePrefixes: string[];
  /** Versions live for a share of visitors (canary/judge.ts); none for most manifests. */
  canaries: Canary[];
}

export interface PublishOptions {
  /** The last moment the change may go live: its client gives up on it then. */
  deadline?: Date | undefined;
}

/** A history entry before its change is made: the manifest version it produces is not known yet. */
export type HistoryDraft = Omit<HistoryEntry, 'manifestVersion'>;

export interface ControlPlane {
  /** Reads the live manifest and starts noticing changes to it. */
  start(): Promise<LiveManifest>;
  /** The live manifest when it is known to be current; undefined when it must be read first. */
  peek(): LiveManifest | undefined;
  /** The live manifest; after the first successful read, never rejects. */
  get(): Promise<LiveManifest>;
  /**
   * The live manifest as the database holds it now: read after the call, never the copy in
   * memory, which another server's change reaches a moment later. What the deploy API answers
   * with, so a command that lost its answer learns whether its change went live. While the
   * database is out of reach it rejects (ControlPlaneUnavailableError): the last one read may not
   * be the live one.
   */
  read(): Promise<LiveManifest>;
  /**
   * Whether the store answered its last read: false while the database is out of reach (the last
   * manifest read is still served, and changes are refused). Files are always reachable.
   */
  reachable(): boolean;
  /**
   * Makes `json` the live manifest if the live one is still `base` (compare and swap), and records
   * `entry` with it: both or neither. Throws StaleManifestError when the live manifest has moved
   * on, ControlPlaneUnavailableError when the store cannot be reached.
   */
  /**
   * One change (one entry) or one release of several groups (an entry per group). With a
   * deadline, the change never goes live after it: it throws DeadlinePassedError instead.
   */
  publish(
    json: Record<string, unknown>,
    base: string,
    entries: HistoryDraft | readonly HistoryDraft[],
    options?: PublishOptions,
  ): Promise<LiveManifest>;
  /** Every recorded change, oldest first; only one remote's when named. */
  history(remote?: string): Promise<HistoryEntry[]>;
  /** The groups' deploy tokens, kept beside the manifest (tokens.ts). */
  readonly tokens: TokenStore;
  close(): Promise<void>;
}

/** The version of the manifest before anything was ever published. */
export const NO_VERSION = 'none';

const EMPTY_TEXT = '{"schemaVersion":1,"generatedAt":"","remotes":[]}';

export const EMPTY: LiveManifest = {
  version: NO_VERSION,
  text: EMPTY_TEXT,
  json: deepFreeze(JSON.parse(EMPTY_TEXT) as Record<string, unknown>),
  embedded: EMPTY_TEXT,
  manifest: { schemaVersion: 1, generatedAt: '', remotes: [] },
  paths: new Set(),
  unavailablePrefixes: [],
  canaries: [],
};

/** The live manifest moved on from the version a change was made against. */
export class StaleManifestError extends Error {
  override name = 'StaleManifestError';
  constructor(readonly live: string) {
    super(`the live manifest is at version ${live}`);
  }
}

/** The change's deadline passed before it could be committed: nothing was changed. */
export class DeadlinePassedError extends Error {
  override name = 'DeadlinePassedError';
  constructor(readonly deadline: Date) {
    super(`its deadline ${deadline.toISOString()} passed before it could go live`);
  }
}

/** The store of the live manifest cannot be reached: the change was not made (or may not be). */
export class ControlPlaneUnavailableError extends Error {
  override name = 'ControlPlaneUnavailableError';
}

/** Freezes parsed JSON all the way down, so no reader can change what every other one reads. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** JSON that is safe inside a script element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** How a published manifest is written: its version is the hash of exactly these bytes. */
export const manifestText = (json: Record<string, unknown>): string =>
  `${JSON.stringify(json, null, 2)}\n`;

export function live(text: string): LiveManifest {
  const json: unknown = JSON.parse(text);
  const manifest = readManifest(json);
  return {
    version: createHash('sha256').update(text).digest('hex').slice(0, 12),
    text,
    // readManifest refused anything but an object.
    json: deepFreeze(json as Record<string, unknown>),
    // Each group's overview and leading pages (the rest is fetched when a visitor goes further);
    // entries that cannot be read as they are, so the browser sets aside the same ones.
    embedded: scriptJson(pageManifestJson(json as Record<string, unknown>)),
    manifest,
    paths: new Set(manifest.remotes.flatMap((r) => r.routes.map((route) => route.path))),
    unavailablePrefixes: (manifest.unavailable ?? []).flatMap((u) => u.prefixes),
    canaries: readCanaries(json, manifest),
  };
}
