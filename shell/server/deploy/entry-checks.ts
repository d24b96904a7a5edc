/**
 * Every check an entry must pass before it goes live, apart from who asks (deployer.ts): its
 * fields; its origin, which must be allowed; its URL, which must name its version's folder; its
 * route table, fetched from there (no redirect followed) no further than its limit in bytes,
 * naming the group it is published as, within its limits, its prefixes and paths plain
 * (table-rules.ts), read with the browser's parser, its paths inside its prefixes, clear of every
 * other group's, of the shell's pages and of every path the site serves itself, its prefixes
 * those the site table grants its group; the shared packages it needs, provided by the live
 * shell; its Node build, fetched and pinned by SHA-256 (and the file the team built, when the team
 * says which); every file its pages load in the browser, fetched and pinned by SHA-384
 * (file-pins.ts); and every one of its pages, rendered from that pinned file by its own render
 * processes. Any failure is a RefusedError that says why; nothing is changed.
 */
import semver from 'semver';
import {
  SHA256_INTEGRITY,
  isGroupName,
  type DeploymentManifest,
  type RemoteDeployment,
  type RouteTable,
} from '@site/contracts';
import type { LiveManifest } from '../control-plane';
import { RemoteFileError, fetchRemoteFile, fetchRemoteJson } from './remote-files';
import { pinFiles } from './file-pins';
import { RefusedError, patchManifest, type PublishedEntry } from './patch';
import { refuseReserved } from './reserved';
import {
  LIMIT_SETTINGS,
  refuseOversized,
  refuseUngranted,
  refuseUnplain,
  type Grants,
  type RouteTableLimits,
} from './table-rules';

/** A refusal for a file that could not be fetched, as the team should read it. */
function refusedFetch(error: unknown): RefusedError {
  if (!(error instanceof RemoteFileError)) throw error;
  const status = error.code === 'not_allowed' ? 403 : 422;
  return new RefusedError(
    status,
    error.code === 'not_json' ? 'invalid_entry' : error.code,
    error.message,
  );
}

export interface EntryCheckOptions {
  /** Origins entries may point at, e.g. `https://cdn.example.com`. */
  allowedOrigins: readonly string[];
  current(): Promise<LiveManifest>;
  /** What the shell provides: package name -> version. */
  providedVersions: Record<string, string>;
  shellPaths: readonly string[];
  /**
   * Paths the site serves itself besides the shell's pages (its files, `/api`, `/remotes.json`,
   * …; anything under `/_` is refused anyway): no group's prefix may overlap one. Read for each
   * change, so a new shell build's files count at once.
   */
  reservedPaths(): Promise<readonly string[]>;
  /** Renders a page against a manifest; resolves to the failure, if any. */
  renderCheck(manifest: DeploymentManifest, path: string): Promise<string | null>;
  /** Each group's prefixes as the site table grants them, read for each change. */
  grants(): Promise<Grants>;
  /** How large a route table, and what every page shows of it, may be (table-rules.ts). */
  routeLimits: RouteTableLimits;
  fetchTimeoutMs?: number;
}

/**
 * Refuses an entry whose URL does not name the folder of the version it publishes, as written:
 * `…/1.0.0/../1.1.0/remoteEntry.js` (or `%2e%2e`) reads as the 1.1.0 folder, and the history would
 * name 1.0.1 while 1.1.0 runs.
 */
function refuseOtherFolder(published: PublishedEntry, url: URL): void {
  const folder = url.pathname.split('/').at(-2);
  const why =
    url.href !== published.entry
      ? `it reads as ${url.href}`
      : url.search || url.hash
        ? 'it has a query or a fragment'
        : folder !== published.version
          ? `its folder is "${folder}"`
          : undefined;
  if (why === undefined) return;
  throw new RefusedError(
    422,
    'not_version_folder',
    `the entry ${published.entry} must name the folder of the version it publishes, as in …/${published.version}/remoteEntry.js, with no "." or ".." segment, encoded dot or query: ${why}; nothing was changed`,
  );
}

export class EntryChecks {
  private readonly allowed: ReadonlySet<string>;

  constructor(private readonly options: EntryCheckOptions) {
    this.allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  }

  private get fetchOptions() {
    return { timeoutMs: this.options.fetchTimeoutMs ?? 5000, maxBytes: 20 * 1024 * 1024 };
  }

  private async json(url: string, what: string): Promise<unknown> {
    try {
      return await fetchRemoteJson(url, this.allowed, what, this.fetchOptions);
    } catch (error) {
      throw refusedFetch(error);
    }
  }

  /** The route table, read no further than its limit in bytes. */
  private async table(url: string): Promise<unknown> {
    const limit = this.options.routeLimits.tableBytes;
    try {
      return await fetchRemoteJson(url, this.allowed, 'the route table', {
        ...this.fetchOptions,
        maxBytes: limit,
      });
    } catch (error) {
      if (error instanceof RemoteFileError && error.code === 'too_large') {
        throw new RefusedError(
          422,
          'table_too_large',
          `the route table at ${url} has more than ${limit} bytes, the limit (${LIMIT_SETTINGS.tableBytes}); nothing was changed`,
        );
      }
      throw refusedFetch(error);
    }
  }

  /**
   * The shared packages the new version needs that the live shell does not provide; its federation
   * manifest when there are none.
   */
  private async checkShared(entry: string): Promise<unknown> {
    const manifest = (await this.json(
      new URL('mf-manifest.json', entry).href,
      'the federation manifest',
    )) as { shared?: { name?: string; requiredVersion?: string }[] } | null;
    const missing: string[] = [];
    for (const { name, requiredVersion } of manifest?.shared ?? []) {
      if (!name || !requiredVersion) continue;
      const provided = this.options.providedVersions[name];
      if (provided === undefined) {
        missing.push(`${name} ${requiredVersion} (the shell provides none)`);
      } else if (!semver.satisfies(provided, requiredVersion)) {
        missing.push(`${name} ${requiredVersion} (the shell provides ${provided})`);
      }
    }
    if (missing.length) {
      throw new RefusedError(
        422,
        'shared_not_provided',
        `this version needs ${missing.join(', ')}: deploy a shell that provides ${missing.length > 1 ? 'them' : 'it'} first`,
      );
    }
    return manifest;
  }

  /**
   * The pin of the version's Node build as its origin serves it now. When the change names the pin
   * it expects (the team's build, or the version that was live before a rollback), the served file
   * must be that one.
   */
  private async pin(published: PublishedEntry): Promise<string> {
    const url = new URL('server/pages.js', published.entry).href;
    let served: string;
    try {
      served = (await fetchRemoteFile(url, this.allowed, 'the Node build', this.fetchOptions))
        .integrity;
    } catch (error) {
      throw refusedFetch(error);
    }
    if (published.serverIntegrity && published.serverIntegrity !== served) {
      throw new RefusedError(
        422,
        'contents_differ',
        `${url} is not the file this deploy names (expected ${published.serverIntegrity}, the origin serves ${served}): a version's files must not change once built; build and deploy a new version`,
      );
    }
    return served;
  }

  /** The entry's own fields, before anything is fetched; its URL when they are sound. */
  private validate(published: PublishedEntry): URL {
    if (!isGroupName(published.name)) {
      throw new RefusedError(400, 'bad_field', 'the remote name must be a snake_case identifier');
    }
    if (!semver.valid(published.version)) {
      throw new RefusedError(400, 'bad_field', `"${published.version}" is not a semantic version`);
    }
    if (published.serverIntegrity && !SHA256_INTEGRITY.test(published.serverIntegrity)) {
      throw new RefusedError(
        400,
        'bad_field',
        '"serverIntegrity" must be "sha256-" and the base64 of a SHA-256 digest',
      );
    }
    let url: URL;
    try {
      url = new URL(published.entry);
    } catch {
      throw new RefusedError(400, 'bad_field', `"${published.entry}" is not a URL`);
    }
    if (!/^https?:$/.test(url.protocol) || !this.allowed.has(url.origin)) {
      throw new RefusedError(
        403,
        'origin_not_allowed',
        `entries may point only at ${[...this.allowed].join(', ') || 'no origin (none is configured)'}; not at ${url.origin}`,
      );
    }
    refuseOtherFolder(published, url);
    return url;
  }

  /**
   * Runs every check on the entries and makes them live together in one compare-and-swap, or
   * throws without changing anything. Each entry is checked against the manifest with the entries
   * before it in place, and every page of every changed group must render with all of them live.
   */
  async check(
    entries: readonly PublishedEntry[],
    base: string,
    signal?: AbortSignal,
  ): Promise<{ before: LiveManifest; json: Record<string, unknown>; changed: RemoteDeployment[] }> {
    const names = entries.map((e) => e.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) {
      throw new RefusedError(400, 'bad_field', `"${twice}" is named twice in one release`);
    }
    const urls = entries.map((published) => this.validate(published));
    const reserved = await this.options.reservedPaths();
    const grants = await this.options.grants();
    const before = await this.options.current();
    if (base !== before.version) {
      throw new RefusedError(
        409,
        'stale_base',
        `the live manifest is at version ${before.version}, not ${base}: read it again and retry`,
      );
    }
    let json: Record<string, unknown> = { ...before.json };
    const changed: RemoteDeployment[] = [];
    for (const [i, published] of entries.entries()) {
      signal?.throwIfAborted();
      const url = urls[i]!;
      const table = (await this.table(new URL('routes.json', url).href)) as RouteTable;
      if (typeof table !== 'object' || table === null) {
        throw new RefusedError(422, 'invalid_entry', 'the route table is not a JSON object');
      }
      if (table.remote !== published.name) {
        throw new RefusedError(
          422,
          'wrong_remote',
          `the route table at the entry's origin belongs to "${String(table.remote)}", not "${published.name}"`,
        );
      }
      refuseOversized(table, this.options.routeLimits);
      refuseReserved(table, reserved);
      refuseUnplain(table);
      const federation = await this.checkShared(url.href);
      const pinned = {
        ...published,
        serverIntegrity: await this.pin(published),
        files: await pinFiles(
          url,
          federation,
          undefined,
          { allowed: this.allowed, fetch: this.fetchOptions },
          published.files,
        ),
      };
      const patched = patchManifest(json, pinned, table, this.options.shellPaths);
      // After the parser: a prefix another group or the shell holds is refused as taken.
      refuseUngranted(table, published.name, grants);
      json = patched.json;
      changed.push(patched.remote);
    }
    const candidate = {
      ...before.manifest,
      remotes: [...before.manifest.remotes.filter((r) => !names.includes(r.name)), ...changed],
    };
    for (const remote of changed) {
      for (const route of remote.routes) {
        // Past the change's time limit no more pages are rendered for it.
        signal?.throwIfAborted();
        const failure = await this.options.renderCheck(candidate, route.path);
        if (failure) {
          throw new RefusedError(
            422,
            'render_failed',
            `the page ${route.path}${entries.length > 1 ? ` (${remote.name})` : ''} could not be rendered: ${failure}`,
          );
        }
      }
    }
    return { before, json, changed };
  }
}
