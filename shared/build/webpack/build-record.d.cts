/** Types of build-record.cjs, a remote version folder's build record. */
import type { Compiler } from 'webpack';

/** `build.json` in a version folder. */
export interface BuildRecord {
  version: string;
  /** SHA-256 (hex) of everything the folder was built from. */
  sources: string;
  /** SHA-256 (hex) of every file in the folder but build.json, by `/`-separated relative path. */
  files: Record<string, string>;
}

export declare const RECORD_FILE: 'build.json';
/** What a workspace's version folder is built from: `[label, sha-256 hex]`, sorted by label. */
export declare function sourceInputs(workspaceDir: string): [string, string][];
/** One SHA-256 (hex) of `sourceInputs(workspaceDir)`. */
export declare function sourcesDigest(workspaceDir: string): string;
/** The SHA-256 (hex) of every file in a version folder but its build record. */
export declare function folderDigests(folder: string): Record<string, string>;
/** A build record read from JSON; throws an Error saying what is wrong with it. */
export declare function parseRecord(value: unknown): BuildRecord;
/** The record of a version folder, undefined when it has none; throws when it is not a record. */
export declare function readRecord(folder: string): BuildRecord | undefined;
/** The files two digest lists do not hold alike, sorted. */
export declare function differingFiles(
  a: Record<string, string>,
  b: Record<string, string>,
): string[];
/** The webpack plugin that writes `build.json`; one instance goes into every build of the folder. */
export declare function buildRecordPlugin(options: {
  folder: string;
  version: string;
  sources: () => string;
}): { apply(compiler: Compiler): void };
