import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Encoding } from '@site/serving';
import { LRUCache } from 'lru-cache';

/** A page as it is sent: its status, headers, ETag and bytes in each coding. */
export interface SentPage {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly etag: string;
  /** Its bytes, uncompressed. */
  readonly length: number;
  readonly body: Buffer;
  encode(encoding: Encoding): Buffer;
}

/** Brotli made quickly (quality 5: a millisecond or two, about 11 % larger than the strongest). */
export const quickBrotli = (body: Buffer): Buffer =>
  zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });

/** The strongest brotli, made in the background (some 80 ms of CPU); `done` gets it. */
export function bestBrotli(body: Buffer, done: (best: Buffer) => void): void {
  zlib.brotliCompress(
    body,
    {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    },
    (error, best) => {
      if (!error) done(best);
    },
  );
}

/**
 * A composed page and its compressed forms, made once and sent many times. A page kept in the
 * cache is held compressed (`hold`): its gzip form is what almost every client asks for, and the
 * rare client that asks for none gets it unpacked again, so a page costs its compressed bytes, not
 * several times that.
 */
export class ComposedPage implements SentPage {
  readonly etag: string;
  /** The page's bytes, uncompressed. */
  readonly length: number;
  private raw: Buffer | null;
  private encoded: Partial<Record<Encoding, Buffer>> = {};
  private upgrading = false;
  private served = 0;

  constructor(
    readonly status: number,
    html: string,
    readonly headers: Record<string, string> = {},
  ) {
    const body = Buffer.from(html);
    this.raw = body;
    this.length = body.length;
    this.etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  }

  /** The page uncompressed (unpacked from its gzip form when it is held compressed). */
  get body(): Buffer {
    return this.raw ?? zlib.gunzipSync(this.encoded.gzip!);
  }

  /** Bytes held: the forms kept, as they are. */
  get size(): number {
    return (
      (this.raw?.length ?? 0) + (this.encoded.br?.length ?? 0) + (this.encoded.gzip?.length ?? 0)
    );
  }

  /** Keeps the page compressed only (gzip, made now if it was not), for a long stay in a cache. */
  hold(): void {
    if (!this.raw) return;
    this.encoded.gzip ??= zlib.gzipSync(this.raw, { level: 9 });
    this.raw = null;
  }

  /**
   * The page compressed. It is compressed quickly at first (brotli quality 5: a millisecond or two,
   * about 11% larger than the strongest); a page asked for again gets the strongest brotli, made
   * in the background (some 80 ms of CPU, which a first composition after a deploy should not
   * wait behind) and used from then on.
   */
  encode(encoding: Encoding): Buffer {
    this.served += 1;
    const ready = this.encoded[encoding];
    if (ready) {
      if (encoding === 'br' && this.served >= 2) this.upgrade();
      return ready;
    }
    if (encoding === 'gzip') {
      this.encoded.gzip = zlib.gzipSync(this.body, { level: 9 });
      return this.encoded.gzip;
    }
    this.encoded.br = quickBrotli(this.body);
    return this.encoded.br;
  }

  private upgrade(): void {
    if (this.upgrading) return;
    this.upgrading = true;
    bestBrotli(this.body, (best) => (this.encoded.br = best));
  }
}

/** What the page cache keeps: a page, or a page's shape (pages/pieces.ts). */
export interface KeptPage {
  readonly status: number;
  /** Bytes held. */
  readonly size: number;
  /** Makes it as small as it can be for a long stay. */
  hold(): void;
}

export interface PageCacheOptions {
  /** Most pages kept. */
  maxEntries: number;
  /** Most bytes kept, compressed forms included. */
  maxBytes: number;
  /** How long a page whose group could not be rendered is kept before it is tried again. */
  failedTtlMs: number;
  /**
   * Whether a page stands in for one that could not be rendered (kept `failedTtlMs` like a failed
   * one); by default, a page whose status is 500 or above.
   */
  standsIn?: (page: KeptPage) => boolean;
  /** Told of every look-up: whether the page was there (or being composed for another request). */
  observe?: (hit: boolean) => void;
}

/**
 * Composed pages by a key of what each depends on (pages/plugin.ts: shell build, navigation, the
 * owning group's version, path), so a deploy of one group composes only that group's pages afresh
 * on their next request; the old ones age out. Bounded by count
 * and by the bytes the pages hold (least recently used go first): a page is held compressed, and
 * a form added after it was stored (brotli, asked for later) is counted at its next look-up.
 * Compositions under way are shared, so a burst of requests for a new page composes it once.
 */
export class PageCache<Page extends KeptPage = ComposedPage> {
  private readonly pages: LRUCache<string, Page>;
  private readonly pending = new Map<string, Promise<Page>>();
  /** The size each page was counted at. */
  private readonly counted = new WeakMap<Page, number>();

  constructor(private readonly options: PageCacheOptions) {
    this.pages = new LRUCache<string, Page>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (page) => {
        this.counted.set(page, page.size);
        return Math.max(1, page.size);
      },
    });
  }

  private standsIn(page: Page): boolean {
    return this.options.standsIn ? this.options.standsIn(page) : page.status >= 500;
  }

  get size(): number {
    return this.pages.size;
  }

  /** Bytes held, as counted against `maxBytes`. */
  get bytes(): number {
    return this.pages.calculatedSize;
  }

  get(key: string, compose: () => Promise<Page>): Promise<Page> {
    const hit = this.pages.get(key);
    if (hit) {
      this.options.observe?.(true);
      // A form made since it was counted: counted again (a page that failed keeps its short life).
      // (The same value set again keeps its old size: it is put back instead.)
      if (!this.standsIn(hit) && this.counted.get(hit) !== hit.size) {
        this.pages.delete(key);
        this.pages.set(key, hit);
      }
      return Promise.resolve(hit);
    }
    let pending = this.pending.get(key);
    this.options.observe?.(pending !== undefined);
    if (!pending) {
      pending = compose().then(
        (page) => {
          this.pending.delete(key);
          page.hold();
          this.pages.set(
            key,
            page,
            this.standsIn(page) ? { ttl: this.options.failedTtlMs } : undefined,
          );
          return page;
        },
        (error: unknown) => {
          this.pending.delete(key);
          throw error;
        },
      );
      this.pending.set(key, pending);
    }
    return pending;
  }

  clear(): void {
    this.pages.clear();
  }
}
