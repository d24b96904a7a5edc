import { promises as fs, watch, type FSWatcher } from 'node:fs';
import { privateDir } from '@site/serving/private-dir';
import path from 'node:path';
import { History, type HistoryEntry } from '../deploy/history';
import type { Logger } from '../http/logger';
import {
  DeadlinePassedError,
  EMPTY,
  StaleManifestError,
  live,
  manifestText,
  type ControlPlane,
  type HistoryDraft,
  type LiveManifest,
  type PublishOptions,
} from './index';
import { FileTokenStore } from './tokens-files';

/**
 * The control plane of a single site server: the live manifest is `<deployDir>/remotes.json`, read
 * whenever the file changes, so a deploy (or a hand edit) takes effect on the next request; the
 * history is `<deployDir>/history.jsonl`, the groups' deploy tokens `<deployDir>/group-tokens.json`
 * (digests only). The manifest is read by the same parser the browser uses:
 * an entry that does not parse spoils only its own group, and a file that is not a manifest at all
 * is reported while the last good manifest stays live.
 *
 * Requests read it without touching the disk: the folder is watched, and a change marks the copy
 * stale so the next request waits for the new one; a slow poll stands in where the file system
 * does not report changes (network folders).
 */
export class FileControlPlane implements ControlPlane {
  readonly file: string;
  readonly tokens: FileTokenStore;
  private readonly historyFile: History;
  private current: LiveManifest = EMPTY;
  private mtimeMs = -1;
  private stale = true;
  private reading: Promise<LiveManifest> | undefined;
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;

  constructor(
    readonly deployDir: string,
    private readonly log: Logger = {
      info: console.error,
      warn: console.error,
      error: console.error,
    },
    private readonly pollMs = 2000,
  ) {
    this.file = path.join(deployDir, 'remotes.json');
    this.historyFile = new History(path.join(deployDir, 'history.jsonl'));
    this.tokens = new FileTokenStore(deployDir);
  }

  reachable(): boolean {
    return true;
  }

  async start(): Promise<LiveManifest> {
    // Who deployed what, the tokens and the counts are the operator's: not the render processes'.
    privateDir(this.deployDir);
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

  close(): Promise<void> {
    this.watcher?.close();
    clearInterval(this.poll);
    return Promise.resolve();
  }

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
   * The manifest is written to a temporary file and renamed over the old one, so a reader sees the
   * old file or the new one, never half of either; then the history line is appended and flushed.
   * (A crash between the two leaves the change live without its line: files cannot do better.)
   */
  async publish(
    json: Record<string, unknown>,
    base: string,
    entries: HistoryDraft | readonly HistoryDraft[],
    { deadline }: PublishOptions = {},
  ): Promise<LiveManifest> {
    const before = await this.get();
    if (before.version !== base) throw new StaleManifestError(before.version);
    const text = manifestText(json);
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
    // One server, one process: the last moment before the rename is the change's last chance.
    if (deadline && Date.now() >= deadline.getTime()) {
      await fs.rm(tmp, { force: true });
      throw new DeadlinePassedError(deadline);
    }
    await fs.rename(tmp, this.file);
    this.mtimeMs = (await fs.stat(this.file)).mtimeMs;
    this.current = next;
    await this.historyFile.append(
      ([] as HistoryDraft[]).concat(entries).map((e) => ({ ...e, manifestVersion: next.version })),
    );
    return next;
  }

  history(remote?: string): Promise<HistoryEntry[]> {
    return this.historyFile.read(remote);
  }

  private async read(): Promise<LiveManifest> {
    // Cleared first: a change reported while this read runs makes the next request read again.
    this.stale = false;
    let stat;
    try {
      stat = await fs.stat(this.file);
    } catch {
      if (this.mtimeMs !== -1) this.log.error(`site: the deployment manifest ${this.file} is gone`);
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
      this.log.error(
        `site: the deployment manifest ${this.file} is not valid (${String(error)}); still serving version ${this.current.version}`,
      );
    }
    return this.current;
  }
}
