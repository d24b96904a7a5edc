/**
 * A page held as compressed pieces: its own markup before and after the manifest it embeds, and the
 * manifest, one piece shared by every page composed with it. A deploy of one group changes the
 * manifest every page embeds, but nothing else of the other groups' pages: their pieces stay, the
 * new manifest is compressed once, and each page is sent as its pieces joined.
 *
 * The join is plain gzip (RFC 1952) with one deflate stream (RFC 1951), as pigz writes in parallel:
 * each piece is compressed on its own and ends on a full flush (byte aligned, no reference to what
 * came before it), so pieces may follow each other; an empty final block ends the stream, and the
 * pieces' CRC-32s are combined as zlib's crc32_combine does.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Encoding } from '@site/serving';
import { bestBrotli, quickBrotli, type SentPage } from './cache';

/** A piece of a page, compressed on its own. */
export interface Piece {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly length: number;
  /** A short digest of its text, for ETags. */
  readonly digest: string;
}

export function piece(text: string): Piece {
  const raw = Buffer.from(text);
  return {
    deflated: zlib.deflateRawSync(raw, {
      level: 9,
      finishFlush: zlib.constants.Z_FULL_FLUSH,
    }),
    crc: zlib.crc32(raw),
    length: raw.length,
    digest: createHash('sha256').update(raw).digest('base64url').slice(0, 16),
  };
}

/** The gzip header zlib writes: deflate, no name, no time, best compression, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
/** An empty final block (fixed codes): the end of the deflate stream. */
const FINAL_BLOCK = Buffer.from([3, 0]);

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0, v = vector >>> 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]!);
}

/** The CRC-32 of two byte strings joined, from each one's CRC-32 and the second's length. */
export function crc32Combine(crc1: number, crc2: number, length2: number): number {
  if (length2 <= 0) return crc1 >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  gf2Square(even, odd);
  gf2Square(odd, even);
  let crc = crc1 >>> 0;
  let length = length2;
  for (;;) {
    gf2Square(even, odd);
    if (length % 2) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length % 2) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ crc2) >>> 0;
}

/** The gzip trailer of pieces joined: the CRC-32 and the length of the whole. */
function gzipTrailer(pieces: readonly Piece[]): Buffer {
  let crc = 0;
  let length = 0;
  for (const p of pieces) {
    crc = length === 0 ? p.crc : crc32Combine(crc, p.crc, p.length);
    length += p.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return trailer;
}

/** Pieces joined into one gzip member. */
export function joinGzip(pieces: readonly Piece[], trailer = gzipTrailer(pieces)): Buffer {
  return Buffer.concat([GZIP_HEADER, ...pieces.map((p) => p.deflated), FINAL_BLOCK, trailer]);
}

/**
 * A composed page without its manifest: what a page cache keeps by what the page depends on (shell
 * build, navigation, its group's version, path). Sent with a manifest, it is a `SentPage`.
 */
export class PageShape {
  private readonly before: Piece;
  private readonly after: Piece;
  /**
   * The page as last sent: with which manifest, its gzip trailer and its brotli form. Its gzip form
   * is joined for each answer (a copy of some kilobytes), so a page holds its pieces alone.
   */
  private last: {
    manifest: Piece;
    trailer: Buffer;
    gzip?: Buffer;
    br?: Buffer;
    sent?: SentPage;
    served: number;
  } | null = null;
  private upgrading = false;

  constructor(
    readonly status: number,
    before: string,
    after: string,
    readonly headers: Record<string, string> = {},
    private readonly hot?: HotPages,
  ) {
    this.before = piece(before);
    this.after = piece(after);
  }

  /** Bytes held: its pieces, and its brotli form as last sent. */
  get size(): number {
    return this.before.deflated.length + this.after.deflated.length + (this.last?.br?.length ?? 0);
  }

  /** Already held compressed. */
  hold(): void {}

  private forms(manifest: Piece) {
    if (this.last?.manifest !== manifest) {
      const trailer = gzipTrailer([this.before, manifest, this.after]);
      if (this.last?.gzip) this.hot?.drop(this);
      this.last = { manifest, trailer, served: 0 };
      this.upgrading = false;
    }
    return this.last;
  }

  private gzip(manifest: Piece): Buffer {
    const forms = this.forms(manifest);
    if (forms.gzip) return forms.gzip;
    const joined = joinGzip([this.before, manifest, this.after], forms.trailer);
    // A page asked for again is kept joined, in a bounded set of its own (`HotPages`).
    if (forms.served >= 2 && this.hot) {
      forms.gzip = joined;
      this.hot.add(this, joined.length);
    }
    return joined;
  }

  /** Lets go of the joined form (the hot set is full, or has moved on). */
  cool(): void {
    if (this.last) delete this.last.gzip;
  }

  /** The page with `manifest` in its place: made once per manifest, sent for every answer. */
  with(manifest: Piece): SentPage {
    const forms = this.forms(manifest);
    forms.sent ??= this.sentWith(manifest);
    return forms.sent;
  }

  private sentWith(manifest: Piece): SentPage {
    const gzip = () => this.gzip(manifest);
    return {
      status: this.status,
      headers: this.headers,
      etag: `"${this.before.digest}${this.after.digest}.${manifest.digest}"`,
      length: this.before.length + manifest.length + this.after.length,
      get body() {
        return zlib.gunzipSync(gzip());
      },
      encode: (encoding: Encoding) => this.encode(manifest, encoding),
    };
  }

  /** As ComposedPage codes a page: gzip ready; brotli quick first, strongest once asked again. */
  private encode(manifest: Piece, encoding: Encoding): Buffer {
    const forms = this.forms(manifest);
    forms.served += 1;
    if (encoding === 'gzip') return this.gzip(manifest);
    if (forms.br) {
      if (forms.served >= 2 && !this.upgrading) {
        this.upgrading = true;
        bestBrotli(zlib.gunzipSync(this.gzip(manifest)), (best) => {
          if (this.last === forms) forms.br = best;
        });
      }
      return forms.br;
    }
    forms.br = quickBrotli(zlib.gunzipSync(this.gzip(manifest)));
    return forms.br;
  }
}

/**
 * The pages asked for again, kept joined (their gzip answer ready, sent as it is): a set bounded by
 * its own bytes, least recently joined first out, so a crawl of every page costs only the pieces
 * while the pages in demand are sent with no copy.
 */
export class HotPages {
  private readonly pages = new Map<PageShape, number>();
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.held;
  }

  add(page: PageShape, bytes: number): void {
    this.drop(page);
    this.pages.set(page, bytes);
    this.held += bytes;
    for (const [oldest, size] of this.pages) {
      if (this.held <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.held -= size;
      oldest.cool();
    }
  }

  drop(page: PageShape): void {
    const size = this.pages.get(page);
    if (size === undefined) return;
    this.pages.delete(page);
    this.held -= size;
  }
}
