/**
 * The last good composition of each group page: the markup a group version's processes last gave
 * for a path, kept in the control plane (files for one server, PostgreSQL for replicas) so that a
 * site server that starts while the group's host is down or hung (a crash, a new replica, a deploy
 * of the shell) still has it. When the group's render fails at run time, its page is drawn from
 * that markup inside today's frame for a stated time after it was last known good, instead of the
 * notice; only a page no server ever composed (or composed too long ago) gets the notice.
 *
 * Only the same group version's markup stands in: another version's would not match the code the
 * browser then loads, and a canary that fails must count as failing.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { RemoteDeployment } from '@site/contracts';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../http/logger';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Which page of which group version. */
export interface PageOf {
  group: string;
  version: string;
  path: string;
}

/** A page's markup as stored: gzip-compressed, with when it was last known good. */
export interface StoredPage extends PageOf {
  gzip: Buffer;
  /** Milliseconds since the epoch. */
  goodAt: number;
}

/** Where the last good pages are kept (control-plane/last-good-files.ts, last-good-postgres.ts). */
export interface LastGoodStore {
  /** The page, if it is kept. */
  get(page: PageOf): Promise<StoredPage | undefined>;
  /**
   * Keeps the page (replacing what was kept of it), then drops the pages known good longest ago
   * beyond `maxPages`, and every page known good before `staleBefore`.
   */
  put(page: StoredPage, bounds: { maxPages: number; staleBefore: number }): Promise<void>;
  /** The page is still good at `at` (it was served as it was kept). */
  touch(page: PageOf, at: number): Promise<void>;
  close(): Promise<void>;
}

export interface LastGoodSettings {
  /** How long after it was last known good a page may stand in for its group. */
  maxAgeMs: number;
  /** Pages kept at most, across every group and version. */
  maxPages: number;
  /** The largest page markup kept (bytes, uncompressed); a larger one is not kept. */
  maxPageBytes: number;
}

/** A stand-in for a group's page: its markup and when it was last known good. */
export interface LastGoodPage {
  html: string;
  goodAt: number;
}

const keyOf = (page: PageOf) => `${page.group}\n${page.version}\n${page.path}`;

export class LastGoodPages {
  /** When this server last told the store that each page was good: writes are few. */
  private readonly told: LRUCache<string, number>;
  /** Writes under way, which closing waits for: a page rendered just before a stop is kept. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly store: LastGoodStore,
    readonly settings: LastGoodSettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.told = new LRUCache({ max: settings.maxPages });
  }

  /** A group page its processes rendered now: kept, in the background (it is best effort). */
  rendered(owner: RemoteDeployment, path: string, html: string): void {
    const page = { group: owner.name, version: owner.version, path };
    if (Buffer.byteLength(html) > this.settings.maxPageBytes) return;
    const at = this.now();
    this.told.set(keyOf(page), at);
    this.track(
      gzip(html)
        .then((bytes) =>
          this.store.put(
            { ...page, gzip: bytes, goodAt: at },
            { maxPages: this.settings.maxPages, staleBefore: at - this.settings.maxAgeMs },
          ),
        )
        .catch((error: unknown) => this.failed('kept', page, error)),
    );
  }

  private track(write: Promise<void>): void {
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
  }

  /**
   * A group page served as it was composed: it is still good. The store hears of it a few times
   * within the stated time, so a page served from memory for days still has a fresh stand-in.
   */
  served(owner: RemoteDeployment, path: string): void {
    const key = `${owner.name}\n${owner.version}\n${path}`;
    const told = this.told.get(key);
    const at = this.now();
    if (told !== undefined && at - told < this.settings.maxAgeMs / 4) return;
    this.told.set(key, at);
    this.track(
      this.store
        .touch({ group: owner.name, version: owner.version, path }, at)
        .catch((error: unknown) =>
          this.failed('marked good', { group: owner.name, version: owner.version, path }, error),
        ),
    );
  }

  /** The page's last good markup, if it was known good within the stated time. */
  async find(owner: RemoteDeployment, path: string): Promise<LastGoodPage | undefined> {
    const page = { group: owner.name, version: owner.version, path };
    try {
      const kept = await this.store.get(page);
      if (!kept || this.now() - kept.goodAt > this.settings.maxAgeMs) return undefined;
      return { html: (await gunzip(kept.gzip)).toString('utf8'), goodAt: kept.goodAt };
    } catch (error) {
      this.failed('read', page, error);
      return undefined;
    }
  }

  /** Resolves once every write begun so far has ended. */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  async close(): Promise<void> {
    await this.settled();
    await this.store.close();
  }

  private failed(what: string, page: PageOf, error: unknown): void {
    this.log.warn(
      `site: the last good composition of ${page.path} (${page.group}@${page.version}) could not be ${what}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
