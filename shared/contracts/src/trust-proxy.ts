import net from 'node:net';
import { z } from 'zod';

/**
 * TRUST_PROXY, one variable in `.env` that the site server and the mail-service both read, so one
 * language: the proxies in front whose X-Forwarded-For is believed, in Express's `trust proxy`
 * forms. `false`/`none` (the default: a caller cannot pick its own client address), a hop count,
 * or `loopback`, `linklocal`, `uniquelocal`, addresses and ranges, comma-separated. `true` would
 * let any client choose its own address (and the key it is rate-limited under), so it is refused.
 */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [ip, range, ...rest] = entry.split('/');
  if (!ip || rest.length > 0) return false;
  const family = net.isIP(ip);
  if (family === 0) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(range);
}

export const trustProxySetting = z.string().transform((value, ctx): TrustProxy => {
  const v = value.trim();
  if (v === 'false' || v === 'none') return false;
  if (v === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        'true would believe X-Forwarded-For from anyone: name the proxy (an address, a range, loopback) or give a hop count',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !validProxyEntry(e));
  if (entries.length === 0 || bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `"${bad ?? v}" is not false, none, a hop count, loopback/linklocal/uniquelocal, an IP address or a range`,
    });
    return z.NEVER;
  }
  return entries;
});
