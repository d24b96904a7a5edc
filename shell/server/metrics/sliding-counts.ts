/**
 * Counts per key in one-second buckets over a sliding window of at most MAX_WINDOW_MS: the recent
 * error figures a canary's automatic rollback reads, kept apart from the scraped totals.
 */

/** The longest window the sliding counts answer for; older seconds are dropped. */
export const MAX_WINDOW_MS = 15 * 60_000;

/** Counts per group and version in one-second buckets, over the last MAX_WINDOW_MS. */
export class SlidingCounts {
  private readonly buckets = new Map<string, { second: number; count: number }[]>();

  constructor(private readonly now: () => number) {}

  add(key: string): void {
    const second = Math.floor(this.now() / 1000);
    let list = this.buckets.get(key);
    if (!list) this.buckets.set(key, (list = []));
    const last = list[list.length - 1];
    if (last?.second === second) last.count += 1;
    else list.push({ second, count: 1 });
    this.prune(list, second);
  }

  /** How many in the last `windowMs` (whole seconds, this one included). */
  count(key: string, windowMs: number): number {
    const list = this.buckets.get(key);
    if (!list) return 0;
    const second = Math.floor(this.now() / 1000);
    this.prune(list, second);
    const from = second - Math.ceil(Math.min(windowMs, MAX_WINDOW_MS) / 1000) + 1;
    let total = 0;
    for (const bucket of list) if (bucket.second >= from) total += bucket.count;
    return total;
  }

  private prune(list: { second: number }[], second: number): void {
    const oldest = second - MAX_WINDOW_MS / 1000;
    let drop = 0;
    while (drop < list.length && (list[drop] as { second: number }).second <= oldest) drop += 1;
    if (drop > 0) list.splice(0, drop);
  }
}
