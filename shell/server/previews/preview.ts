/**
 * Preview in production: a version of a group that passed every deploy check but is not live,
 * shown to the browsers that opened its link and to no one else.
 *
 * The link carries a token the site signs (HMAC-SHA-256 with a secret every replica shares) naming
 * the group, its version, its entry and the pin of its Node build, and when it expires. Opening the
 * link puts the token in a cookie; a page asked for with valid tokens is composed from the live
 * manifest with those entries in place, never from or into the shared page cache, with
 * `Cache-Control: private, no-store`, `X-Robots-Tag: noindex` and a bar that says so. A token that
 * is forged, altered or expired counts for nothing: the visitor sees the live site.
 */
import { isGroupName } from '@site/contracts';
import { isSignature, purposeKey, sign } from '@site/serving/signatures';
import type { SiteConfig } from '../settings';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { RouteTable } from '@site/contracts';
import { live, manifestText, type LiveManifest } from '../control-plane';
import { patchManifest, type PublishedEntry } from '../deploy/patch';
import { fetchRemoteJson } from '../deploy/remote-files';

export const PREVIEW_COOKIE = 'site_preview';
/** Where a preview link points: `/_preview/<token>`; `/_preview/end` ends every preview. */
export const PREVIEW_PATH = '/_preview';
/** The most groups one browser previews together. */
export const MAX_PREVIEWS = 4;
/** How long a preview link works unless the deploy asks for another time. */
export const DEFAULT_PREVIEW_SECONDS = 24 * 60 * 60;

export interface PreviewClaims {
  remote: string;
  version: string;
  entry: string;
  serverIntegrity: string;
  /** Seconds since the epoch after which the token counts for nothing. */
  exp: number;
}

const isClaims = (value: unknown): value is PreviewClaims => {
  const v = value as Partial<Record<keyof PreviewClaims, unknown>> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.remote === 'string' &&
    isGroupName(v.remote) &&
    typeof v.version === 'string' &&
    v.version.length <= 100 &&
    typeof v.entry === 'string' &&
    v.entry.length <= 2000 &&
    typeof v.serverIntegrity === 'string' &&
    v.serverIntegrity.length <= 100 &&
    typeof v.exp === 'number' &&
    Number.isSafeInteger(v.exp)
  );
};

/** Signs and reads preview tokens: `<claims, base64url JSON>.<HMAC-SHA-256, base64url>`. */
export class PreviewSigner {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  sign(claims: Omit<PreviewClaims, 'exp'>, seconds: number): { token: string; expiresAt: Date } {
    const exp = Math.floor(this.now() / 1000) + seconds;
    const payload = Buffer.from(JSON.stringify({ ...claims, exp })).toString('base64url');
    return {
      token: `${payload}.${sign(this.secret, `preview\n${payload}`)}`,
      expiresAt: new Date(exp * 1000),
    };
  }

  /** The claims of a token this site signed that has not expired; null for anything else. */
  verify(token: string): PreviewClaims | null {
    if (token.length > 4096) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    if (!isSignature(this.secret, `preview\n${payload}`, token.slice(dot + 1))) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!isClaims(claims) || claims.exp * 1000 <= this.now()) return null;
    return claims;
  }

  /** The valid tokens of a Cookie header, one per group (the last one given for a group). */
  fromCookie(header: string | undefined): { token: string; claims: PreviewClaims }[] {
    if (!header) return [];
    let value: string | undefined;
    try {
      value = parseCookie(header)[PREVIEW_COOKIE];
    } catch {
      return [];
    }
    const byRemote = new Map<string, { token: string; claims: PreviewClaims }>();
    for (const token of (value ?? '').split('~').slice(0, MAX_PREVIEWS)) {
      const claims = this.verify(token);
      if (claims) byRemote.set(claims.remote, { token, claims });
    }
    return [...byRemote.values()];
  }
}

/** The cookie that holds `tokens` until the last of them expires (or clears it when empty). */
export function previewCookie(
  tokens: { token: string; claims: PreviewClaims }[],
  secure: boolean,
): string {
  const latest = Math.max(0, ...tokens.map((t) => t.claims.exp));
  return serializeCookie(PREVIEW_COOKIE, tokens.map((t) => t.token).join('~'), {
    httpOnly: true,
    secure,
    sameSite: 'lax',
    path: '/',
    ...(tokens.length ? { expires: new Date(latest * 1000) } : { expires: new Date(0), maxAge: 0 }),
  });
}

/**
 * The manifests previews are composed from: the live manifest with the previewed entries in place,
 * each entry's route table read from its own origin. A few are kept, by live version and tokens.
 */
export class PreviewManifests {
  private readonly made = new Map<string, Promise<LiveManifest>>();

  constructor(
    private readonly options: {
      allowedOrigins: ReadonlySet<string>;
      shellPaths: readonly string[];
      fetchTimeoutMs: number;
    },
  ) {}

  get(base: LiveManifest, previews: readonly PreviewClaims[]): Promise<LiveManifest> {
    const key = `${base.version}|${previews.map((p) => `${p.remote}@${p.entry}#${p.serverIntegrity}`).join('|')}`;
    let made = this.made.get(key);
    if (!made) {
      if (this.made.size >= 32) this.made.delete(this.made.keys().next().value!);
      made = this.make(base, previews);
      this.made.set(key, made);
      // A failure is not kept: the next request tries again.
      made.catch(() => this.made.delete(key));
    }
    return made;
  }

  private async make(
    base: LiveManifest,
    previews: readonly PreviewClaims[],
  ): Promise<LiveManifest> {
    let json: Record<string, unknown> = { ...base.json };
    for (const claims of previews) {
      const table = (await fetchRemoteJson(
        new URL('routes.json', claims.entry).href,
        this.options.allowedOrigins,
        `the route table of the preview of ${claims.remote}@${claims.version}`,
        { timeoutMs: this.options.fetchTimeoutMs, maxBytes: 1024 * 1024 },
      )) as RouteTable;
      const published: PublishedEntry = {
        name: claims.remote,
        entry: claims.entry,
        version: claims.version,
        serverIntegrity: claims.serverIntegrity,
      };
      json = patchManifest(json, published, table, this.options.shellPaths, new Date(0)).json;
    }
    return live(manifestText(json));
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The bar a previewing browser sees on every page, outside the page's React root (so hydration
 * never meets it): which versions it shows, and a link that ends the preview.
 */
export function previewBar(previews: readonly PreviewClaims[]): string {
  const what = previews.map((p) => `${p.remote.replace(/_/g, '-')} ${p.version}`).join(', ');
  return (
    `<div id="site-preview-bar" role="status" style="position:sticky;top:0;z-index:1000;display:flex;gap:1rem;justify-content:center;align-items:center;padding:.5rem 1rem;background:#5b2a86;color:#fff;font:600 0.95rem/1.4 system-ui,sans-serif">` +
    `<span>Preview: ${escapeHtml(what)}</span>` +
    `<a href="${PREVIEW_PATH}/end" style="color:#fff;text-decoration:underline">End preview</a></div>`
  );
}

/**
 * The secret preview links are signed with (every replica must share it): PREVIEW_SECRET, or one
 * derived from the deploy token; none without the deploy API, so no previews.
 */
export const previewSecretOf = (
  config: Pick<SiteConfig, 'DEPLOY_TOKEN' | 'PREVIEW_SECRET'>,
): string | undefined =>
  config.DEPLOY_TOKEN === undefined
    ? undefined
    : (config.PREVIEW_SECRET ??
      purposeKey(config.DEPLOY_TOKEN, 'site preview links').toString('hex'));
