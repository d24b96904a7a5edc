/**
 * What the canary-judgment tests share: visitors as a browser is one (a first visit placed in a
 * cohort, the view token the page sets, an error report with it), and a flood of reports that are
 * not (no token, forged tokens, one token replayed) from many addresses.
 */
import { parse as parseCookie } from 'cookie';
import type { Site } from '../site';
import { OPERATOR, base, call, type Bucket } from './deploy-credentials-helpers';

export const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';

/** What a browser says when it loads a page into a tab (Fetch Metadata): the only kind of view. */
export const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

/** What a first visit to `page` got: its status, the version it saw, and its cookies. */
export interface Visit {
  status: number;
  version: string;
  cookies: Record<string, string>;
  cookieHeader: string;
}

/** A new visitor's first page, from `address` (the site trusts the loopback proxy). */
export async function visit(site: Site, page: string, address: string): Promise<Visit> {
  const answer = await site.app.inject({
    url: page,
    headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...NAVIGATION },
  });
  const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
  const cookies: Record<string, string> = {};
  for (const line of set) Object.assign(cookies, parseCookie(line.split(';')[0]!));
  const token = cookies.site_view ?? '';
  const claims = token
    ? (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as unknown[])
    : [];
  return {
    status: answer.statusCode,
    version: String(claims[1] ?? ''),
    cookies,
    cookieHeader: Object.entries(cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; '),
  };
}

/** A report as the shell's reporter sends it, with whatever cookie header is given. */
export async function report(
  site: Site,
  body: { group: string; version: string },
  address: string,
  cookie?: string,
): Promise<number> {
  const answer = await site.app.inject({
    method: 'POST',
    url: '/_beacon',
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'x-forwarded-for': address,
      ...(cookie ? { cookie } : {}),
    },
    payload: JSON.stringify({ kind: 'page-error', ...body }),
  });
  return answer.statusCode;
}

/** The nth of many addresses: IPv4 in 10/8, then IPv6 in different /64s. */
export const address = (n: number): string =>
  n % 2 === 0
    ? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
    : `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`;

/**
 * `count` reports that must move nothing, from `count` addresses: without a token, with a forged
 * one, with a token of another group's view, and one genuine token replayed over and over.
 */
export async function flood(
  site: Site,
  target: { group: string; version: string },
  count: number,
  replayed: string,
  from = 0,
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const forged = `${Buffer.from(JSON.stringify([target.group, target.version, 0, Date.now() + 600_000, 'forged'])).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`;
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) => {
        const n = from + i + j;
        const cookie = [
          undefined,
          `site_view=${forged}`,
          `site_cohort=0; site_view=${forged}`,
          replayed,
        ][n % 4];
        return report(site, target, address(n), cookie);
      }),
    );
    for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return statuses;
}

/** Starts a canary of `group` at `version` for `percent` of visits with `plan`. */
export async function startCanary(
  site: Site,
  bucket: Bucket,
  group: string,
  version: string,
  percent: number,
  plan: Record<string, unknown>,
) {
  const started = await call(site, 'PUT', `/remotes/${group}`, OPERATOR, {
    base: await base(site),
    entry: bucket.entry(group, version),
    version,
    canary: percent,
    plan,
  });
  if (started.status !== 200) throw new Error(`no canary: ${JSON.stringify(started.body)}`);
  return started.body;
}

/** The live manifest's canaries, as the deploy API shows them. */
export async function canaries(site: Site) {
  const answer = await call(site, 'GET', '/canaries', OPERATOR);
  return answer.body as unknown as import('@site/contracts/deploy-api').CanaryStatusAnswer;
}

/** Polls `check` until it holds or `limitMs` passes (no fixed sleeps). */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  limitMs: number,
  what: string,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
