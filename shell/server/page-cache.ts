import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Encoding } from './static-files';

/** A composed page and its compressed forms, made once and sent many times. */
export class ComposedPage {
  readonly body: Buffer;
  readonly etag: string;
  private encoded: Partial<Record<Encoding, Buffer>> = {};
  private upgrading = false;

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
   * The page compressed. The first answer is compressed quickly (brotli quality 5, a millisecond
   * or two); the strongest brotli is made in the background and used from then on.
   */
  encode(encoding: Encoding): Buffer {
    const ready = this.encoded[encoding];
    if (ready) return ready;
    if (encoding === 'gzip') {
      this.encoded.gzip = zlib.gzipSync(this.body, { level: 9 });
      return this.encoded.gzip;
    }
    const quick = zlib.brotliCompressSync(this.body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    });
    this.encoded.br = quick;
    if (!this.upgrading) {
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
    return quick;
  }
}

export interface PageCacheOptions {
  /** Most pages kept. */
  maxEntries: number;
  /** Most bytes kept, compressed forms included. */
  maxBytes: number;
  /** How long a page whose group could not be rendered is kept before it is tried again. */
  failedTtlMs: number;
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

  get(key: string, compose: () => Promise<ComposedPage>): Promise<ComposedPage> {
    const hit = this.pages.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = this.pending.get(key);
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
