import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Encoding } from '@site/serving';
import { LRUCache } from 'lru-cache';

/** A composed page and its compressed forms, made once and sent many times. */
export class ComposedPage {
  readonly body: Buffer;
  readonly etag: string;
  private encoded: Partial<Record<Encoding, Buffer>> = {};
  private upgrading = false;
  private served = 0;

  constructor(
    readonly status: number,
    html: string,
    readonly headers: Record<string, string> = {},
  ) {
    this.body = Buffer.from(html);
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 22)}"`;
  }

  get size(): number {
    return this.body.length + (this.encoded.br?.length ?? 0) + (this.encoded.gzip?.length ?? 0);
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
    const quick = zlib.brotliCompressSync(this.body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    });
    this.encoded.br = quick;
    return quick;
  }

  private upgrade(): void {
    if (this.upgrading) return;
    this.upgrading = true;
    zlib.brotliCompress(
      this.body,
      {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.body.length,
        },
      },
      (error, best) => {
        if (!error) this.encoded.br = best;
      },
    );
  }
}

export interface PageCacheOptions {
  /** Most pages kept. */
  maxEntries: number;
  /** Most bytes kept, compressed forms included. */
  maxBytes: number;
  /** How long a page whose group could not be rendered is kept before it is tried again. */
  failedTtlMs: number;
  /** Told of every look-up: whether the page was there (or being composed for another request). */
  observe?: (hit: boolean) => void;
}

/**
 * Composed pages by manifest version, shell build and path. A deploy changes the manifest version,
 * so its pages are composed afresh on their next request; the old ones age out. Bounded by count
 * and bytes (least recently used go first). Compositions under way are shared, so a burst of
 * requests for a new page composes it once.
 */
export class PageCache {
  private readonly pages: LRUCache<string, ComposedPage>;
  private readonly pending = new Map<string, Promise<ComposedPage>>();

  constructor(private readonly options: PageCacheOptions) {
    this.pages = new LRUCache<string, ComposedPage>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      // Compressed forms are added after a page is stored; its size is counted with them at most.
      sizeCalculation: (page) => Math.max(1, page.body.length * 2),
    });
  }

  get size(): number {
    return this.pages.size;
  }

  /** Bytes held, as counted against `maxBytes`. */
  get bytes(): number {
    return this.pages.calculatedSize;
  }

  get(key: string, compose: () => Promise<ComposedPage>): Promise<ComposedPage> {
    const hit = this.pages.get(key);
    if (hit) {
      this.options.observe?.(true);
      return Promise.resolve(hit);
    }
    let pending = this.pending.get(key);
    this.options.observe?.(pending !== undefined);
    if (!pending) {
      pending = compose().then(
        (page) => {
          this.pending.delete(key);
          this.pages.set(
            key,
            page,
            page.status >= 500 ? { ttl: this.options.failedTtlMs } : undefined,
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
