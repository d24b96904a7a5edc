/**
 * A seeded random source (sfc32): the same seed gives the same requests in the same order, so a
 * run that finds something can be replayed with `FUZZ_SEED=<seed>`.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    // The first outputs of sfc32 still look like the seed: run it a few rounds first.
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A number in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** One of the choices, each as likely as its weight. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    const total = choices.reduce((sum, [w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [w, value] of choices) {
      r -= w;
      if (r < 0) return value;
    }
    return (choices[choices.length - 1] as readonly [number, T])[1];
  }

  /** `length` characters drawn from `alphabet`. */
  string(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}

/** A seed from FUZZ_SEED when it is set (to replay a run), else a new one. */
export function seedFromEnv(): number {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new Error(`FUZZ_SEED must be an integer from 0 to 4294967295, not "${given}"`);
    return seed;
  }
  return Math.floor(Math.random() * 0x100000000);
}
