/**
 * Seeded random text for the tests that carry strings across the render processes' channel: the
 * same seed gives the same strings, so a failure names its seed and `FUZZ_SEED=<seed>` replays it.
 */

/** Characters that have broken text between processes: line and paragraph separators, NUL, CR. */
const HARD_CHARACTERS = [
  '\u2028',
  '\u2029',
  '\0',
  '\r',
  '\n',
  '\r\n',
  '\t',
  '"',
  '\\',
  '\u0085',
  '\ufeff',
  '\u{1f600}',
  'é',
  '</script>',
  '\u0001',
  '\u001f',
  '\u007f',
] as const;

/** Lone halves of a surrogate pair: strings JSON carries, but no UTF-8 form does. */
const LONE_SURROGATES = ['\ud800', '\udfff', '\udbff'] as const;

export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new Error(`FUZZ_SEED must be an integer from 0 to 4294967295, not "${given}"`);
    }
    return seed;
  }
  return Math.floor(Math.random() * 0x100000000);
}

/** mulberry32: small, and good enough to spread strings over the characters above. */
export class RandomText {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /**
   * Up to `maxLength` UTF-16 units: plain letters, the hard characters, random code points of the
   * whole range and, with `loneSurrogates`, halves of surrogate pairs.
   */
  string(maxLength: number, { loneSurrogates = false } = {}): string {
    const length = this.int(1, maxLength);
    let out = '';
    for (;;) {
      const piece = this.piece(loneSurrogates);
      // Never cut a piece: half of a pair would be a lone surrogate nobody asked for.
      if (out.length + piece.length > length) return out || 'x';
      out += piece;
    }
  }

  private piece(loneSurrogates: boolean): string {
    const roll = this.next();
    if (roll < 0.35) return String.fromCharCode(this.int(0x61, 0x7a));
    if (roll < 0.7) return HARD_CHARACTERS[this.int(0, HARD_CHARACTERS.length - 1)] as string;
    if (roll < 0.8 && loneSurrogates) {
      return LONE_SURROGATES[this.int(0, LONE_SURROGATES.length - 1)] as string;
    }
    const code = this.int(0x20, 0x10ffff - 0x800);
    // Past the surrogates' block: a code point drawn in it would be a lone half.
    return String.fromCodePoint(code >= 0xd800 ? code + 0x800 : code);
  }
}
