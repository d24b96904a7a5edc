import net from 'node:net';

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the client may send again (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiterOptions {
  max: number;
  windowMs: number;
  now?: () => number;
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed-window counter per client, in memory. A single instance is the unit that owns its
 * outbox, so a per-instance limit is what protects it; several instances behind a balancer each
 * enforce the limit on their share.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private nextSweep: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.nextSweep = this.now() + this.sweepEvery();
  }

  /** Counts one message for `key` if the client is still within its allowance. */
  consume(key: string): RateDecision {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.options.windowMs };
      this.windows.set(key, window);
    }
    if (window.count >= this.options.max) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
      };
    }
    window.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  get size(): number {
    return this.windows.size;
  }

  private sweepEvery(): number {
    return Math.min(this.options.windowMs, 60_000);
  }

  // Expired windows are dropped now and then, so a stream of one-off clients cannot grow the map.
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.sweepEvery();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * The key a client is counted under: its IPv4 address, or the /64 of an IPv6 address (one
 * subscriber usually holds a whole /64 and can pick any address in it).
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv4(ip)) return ip;
  const bare = ip.split('%')[0] ?? ip;
  if (!net.isIPv6(bare)) return ip;
  return `${expandIPv6(bare).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(ip: string): string[] {
  let s = ip;
  // An embedded IPv4 tail (64:ff9b::1.2.3.4) becomes two hex groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => parseInt(g, 16).toString(16));
}
