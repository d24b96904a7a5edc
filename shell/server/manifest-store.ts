import { createHash } from 'node:crypto';
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { readManifest, type DeploymentManifest } from '@site/shared/contracts';

export interface LiveManifest {
  /** Content hash: every page composed from this manifest is cached under it. */
  version: string;
  text: string;
  /** The manifest as JSON that is safe inside a page's script element. */
  embedded: string;
  manifest: DeploymentManifest;
  /** Every path a remote owns. */
  paths: Set<string>;
  /** Prefixes of groups whose entries could not be read: their paths answer 503. */
  unavailablePrefixes: string[];
}

const EMPTY: LiveManifest = {
  version: 'none',
  text: '{"schemaVersion":1,"generatedAt":"","remotes":[]}',
  embedded: '{"schemaVersion":1,"generatedAt":"","remotes":[]}',
  manifest: { schemaVersion: 1, generatedAt: '', remotes: [] },
  paths: new Set(),
  unavailablePrefixes: [],
};

/**
 * The live deployment manifest, read from its file whenever the file changes, so a deploy takes
 * effect on the next request. It is read by the same parser the browser uses: an entry that does
 * not parse spoils only its own group, and a file that is not a manifest at all is reported while
 * the last good manifest stays live.
 *
 * Requests read it without touching the disk: the folder is watched, and a change marks the copy
 * stale so the next request waits for the new one; a slow poll stands in where the file system
 * does not report changes (network folders).
 */
export class ManifestStore {
  private current: LiveManifest = EMPTY;
  private mtimeMs = -1;
  private stale = true;
  private reading: Promise<LiveManifest> | undefined;
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly log: (message: string) => void = console.error,
    private readonly pollMs = 2000,
  ) {}

  /** Reads the manifest and starts noticing changes to it. */
  async start(): Promise<LiveManifest> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    try {
      this.watcher = watch(path.dirname(this.file), (_, name) => {
        if (name === null || name === path.basename(this.file)) this.stale = true;
      });
      this.watcher.on('error', () => this.watcher?.close());
      this.watcher.unref();
    } catch {
      // No file-system events here: the poll notices changes.
    }
    this.poll = setInterval(() => (this.stale = true), this.pollMs);
    this.poll.unref();
    return this.get();
  }

  close(): void {
    this.watcher?.close();
    clearInterval(this.poll);
  }

  /** The live manifest when it is known to be current; undefined when it must be read first. */
  peek(): LiveManifest | undefined {
    return this.stale ? undefined : this.current;
  }

  get(): Promise<LiveManifest> {
    if (!this.stale) return Promise.resolve(this.current);
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /**
   * Makes a new manifest live if the live one is still `expected` (compare and swap): written to a
   * temporary file and renamed over the old one, so a reader sees the old file or the new one,
   * never half of either.
   */
  async replace(json: Record<string, unknown>, expected: string): Promise<LiveManifest> {
    const before = await this.get();
    if (before.version !== expected) throw new StaleManifestError(before.version);
    const text = `${JSON.stringify(json, null, 2)}\n`;
    const next = live(text);
    const tmp = path.join(
      path.dirname(this.file),
      `.${path.basename(this.file)}.${process.pid}.tmp`,
    );
    const handle = await fs.open(tmp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, this.file);
    this.mtimeMs = (await fs.stat(this.file)).mtimeMs;
    this.current = next;
    return next;
  }

  private async read(): Promise<LiveManifest> {
    // Cleared first: a change reported while this read runs makes the next request read again.
    this.stale = false;
    let stat;
    try {
      stat = await fs.stat(this.file);
    } catch {
      if (this.mtimeMs !== -1) this.log(`site: the deployment manifest ${this.file} is gone`);
      this.mtimeMs = -1;
      this.current = EMPTY;
      return this.current;
    }
    if (stat.mtimeMs === this.mtimeMs) return this.current;
    try {
      const text = await fs.readFile(this.file, 'utf8');
      this.mtimeMs = stat.mtimeMs;
      this.current = live(text);
    } catch (error) {
      this.log(
        `site: the deployment manifest ${this.file} is not valid (${String(error)}); still serving version ${this.current.version}`,
      );
    }
    return this.current;
  }
}

/** The live manifest moved on from the version a change was made against. */
export class StaleManifestError extends Error {
  override name = 'StaleManifestError';
  constructor(readonly live: string) {
    super(`the live manifest is at version ${live}`);
  }
}

/** JSON that is safe inside a script element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function live(text: string): LiveManifest {
  const json: unknown = JSON.parse(text);
  const manifest = readManifest(json);
  return {
    version: createHash('sha256').update(text).digest('hex').slice(0, 12),
    text,
    // As it is: the browser reads it with the same parser, setting aside the same entries.
    embedded: scriptJson(json),
    manifest,
    paths: new Set(manifest.remotes.flatMap((r) => r.routes.map((route) => route.path))),
    unavailablePrefixes: (manifest.unavailable ?? []).flatMap((u) => u.prefixes),
  };
}
