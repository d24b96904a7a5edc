/**
 * What a deploy and a rollback do, apart from HTTP: every check a new entry must pass before it goes
 * live, and the compare-and-swap that makes it live. Any failure leaves the live manifest as it was
 * and says why (a RefusedError with a status and a code).
 *
 * Before an entry goes live: its origin must be allowed; its route table is fetched from there (no
 * redirect followed) and read with the browser's parser; its paths must stay in its prefixes and
 * clear of every other group's; the shared packages it needs must be provided by the live shell;
 * its Node build is fetched and pinned by SHA-256 (and must be the file the team built, when the
 * team says which); and every one of its pages must render on the server from that pinned file.
 *
 * Before any of that, the change's credential must be allowed to change every group it names (a
 * group's deploy token moves only its own group), and the route table must name the group it is
 * published as and claim no path the site serves itself.
 */
import { randomBytes } from 'node:crypto';
import semver from 'semver';
import {
  SHA256_INTEGRITY,
  type DeploymentManifest,
  type RemoteDeployment,
  type RouteTable,
} from '@site/contracts';
import { StaleManifestError, type ControlPlane, type LiveManifest } from '../control-plane';
import { RemoteFileError, fetchRemoteFile, fetchRemoteJson } from '../remote-files';
import { liveVersion, rollbackTarget, type HistoryEntry } from './history';
import { RefusedError, patchManifest, type PublishedEntry } from './patch';
import { refuseReserved } from './reserved';

/** Who makes a change, and which groups it may change. */
export interface Credential {
  /** As the history records it: `operator`, `group:data#<token id>`, `site`. Never a token. */
  label: string;
  /** The groups (federation names) it may change; every group when absent. */
  groups?: readonly string[];
}

/** The site's operator (DEPLOY_TOKEN): every group. */
export const OPERATOR: Credential = { label: 'operator' };
/** The site itself: a canary it rolls back when its errors pass the threshold. */
export const SITE: Credential = { label: 'site' };

export interface DeployerOptions {
  /** Origins entries may point at, e.g. `https://cdn.example.com`. */
  allowedOrigins: readonly string[];
  current(): Promise<LiveManifest>;
  /**
   * Makes a manifest live if the live one is still `base`, together with its history entry; throws
   * StaleManifestError if not (ControlPlane.publish).
   */
  publish: ControlPlane['publish'];
  history: ControlPlane['history'];
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
  fetchTimeoutMs?: number;
}

/** What a release of several groups did: its id, the manifest it made live, a change per group. */
export interface Release {
  release: string;
  manifestVersion: string;
  changes: HistoryEntry[];
}

/** Takes the canaries of `names` out of a manifest's JSON (the key goes when none is left). */
function withoutCanaries(json: Record<string, unknown>, names: readonly string[]): void {
  if (!Array.isArray(json.canaries)) return;
  const kept = (json.canaries as { name?: unknown }[]).filter(
    (c) => !names.includes(String(c?.name)),
  );
  if (kept.length) json.canaries = kept;
  else delete json.canaries;
}

/** A release's id: short enough to type, random enough never to repeat. */
const newReleaseId = (): string => `r-${randomBytes(6).toString('hex')}`;

export interface Change {
  base: string;
  reason: string;
  by: string;
  credential: Credential;
}

/** Refuses a change of groups the credential may not change, before anything is read or fetched. */
function authorize(credential: Credential, names: readonly string[]): void {
  const allowed = credential.groups;
  if (!allowed) return;
  const refused = [...new Set(names.filter((name) => !allowed.includes(name)))];
  if (refused.length === 0) return;
  throw new RefusedError(
    403,
    'group_not_allowed',
    `the deploy token ${credential.label} may change only ${allowed.join(', ')}, not ${refused.join(', ')}; nothing was changed`,
  );
}

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

export class Deployer {
  private readonly allowed: ReadonlySet<string>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DeployerOptions) {
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

  /** The shared packages the new version needs that the live shell does not provide. */
  private async checkShared(entry: string): Promise<void> {
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
    if (!/^[a-z][a-z0-9_]*$/.test(published.name)) {
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
    return url;
  }

  /**
   * Runs every check on the entries and makes them live together in one compare-and-swap, or
   * throws without changing anything. Each entry is checked against the manifest with the entries
   * before it in place, and every page of every changed group must render with all of them live.
   */
  private async checked(
    entries: readonly PublishedEntry[],
    base: string,
  ): Promise<{ before: LiveManifest; json: Record<string, unknown>; changed: RemoteDeployment[] }> {
    const names = entries.map((e) => e.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) {
      throw new RefusedError(400, 'bad_field', `"${twice}" is named twice in one release`);
    }
    const urls = entries.map((published) => this.validate(published));
    const reserved = await this.options.reservedPaths();
    const before = await this.options.current();
    if (base !== before.version) {
      throw new RefusedError(
        409,
        'stale_base',
        `the live manifest is at version ${before.version}, not ${base}: read it again and retry`,
      );
    }
    let json = JSON.parse(before.text) as Record<string, unknown>;
    const changed: RemoteDeployment[] = [];
    for (const [i, published] of entries.entries()) {
      const url = urls[i]!;
      const table = (await this.json(
        new URL('routes.json', url).href,
        'the route table',
      )) as RouteTable;
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
      refuseReserved(table, reserved);
      await this.checkShared(url.href);
      const pinned = { ...published, serverIntegrity: await this.pin(published) };
      const patched = patchManifest(json, pinned, table, this.options.shellPaths);
      json = patched.json;
      changed.push(patched.remote);
    }
    const candidate = {
      ...before.manifest,
      remotes: [...before.manifest.remotes.filter((r) => !names.includes(r.name)), ...changed],
    };
    for (const remote of changed) {
      for (const route of remote.routes) {
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

  private async publish(
    entries: readonly PublishedEntry[],
    change: Change & { action: HistoryEntry['action']; release?: string },
  ): Promise<HistoryEntry[]> {
    authorize(
      change.credential,
      entries.map((e) => e.name),
    );
    const { before, json, changed } = await this.checked(entries, change.base);
    // A group's new version replaces its canary too: a deploy of the canary's version promotes it.
    withoutCanaries(
      json,
      changed.map((r) => r.name),
    );
    const at = new Date().toISOString();
    const drafts = changed.map((remote) => {
      const previous = before.manifest.remotes.find((r) => r.name === remote.name);
      return {
        at,
        by: change.by,
        credential: change.credential.label,
        action: change.action,
        remote: remote.name,
        from: previous ? liveVersion(previous) : null,
        to: liveVersion(remote),
        reason: change.reason,
        ...(change.release ? { release: change.release } : {}),
      };
    });
    const after = await this.casPublish(json, before.version, drafts);
    return drafts.map((draft) => ({ ...draft, manifestVersion: after.version }));
  }

  /** Compare and swap: nothing else may have gone live while the checks ran. */
  private async casPublish(
    json: Record<string, unknown>,
    base: string,
    drafts: Omit<HistoryEntry, 'manifestVersion'>[],
  ): Promise<LiveManifest> {
    try {
      return await this.options.publish(json, base, drafts);
    } catch (error) {
      if (!(error instanceof StaleManifestError)) throw error;
      throw new RefusedError(
        409,
        'stale_base',
        `the live manifest changed to ${error.live} while this deploy was checked: retry`,
      );
    }
  }

  /** One change at a time: each sees the manifest the previous one left. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  deploy(published: PublishedEntry, change: Change): Promise<HistoryEntry> {
    return this.serialized(async () => {
      const [done] = await this.publish([published], {
        ...change,
        reason: change.reason || `deploy ${published.version}`,
        action: 'deploy',
      });
      return done!;
    });
  }

  /**
   * Every check of a deploy, without going live: the entry as it would be published (its pin
   * included), for a preview link.
   */
  preview(
    published: PublishedEntry,
    base: string,
    credential: Credential,
  ): Promise<RemoteDeployment> {
    return this.serialized(async () => {
      authorize(credential, [published.name]);
      return (await this.checked([published], base)).changed[0]!;
    });
  }

  /**
   * A version live for `percent` of visits beside the stable one, after every check a deploy runs
   * (the pages rendered as the canary's visitors will see them). The group must be live.
   */
  canary(published: PublishedEntry, percent: number, change: Change): Promise<HistoryEntry> {
    return this.serialized(async () => {
      authorize(change.credential, [published.name]);
      const { before, json, changed } = await this.checked([published], change.base);
      const remote = changed[0]!;
      const stable = before.manifest.remotes.find((r) => r.name === remote.name);
      if (!stable) {
        throw new RefusedError(
          422,
          'not_live',
          `"${remote.name}" is not live: a canary runs beside a live version; deploy it first`,
        );
      }
      const raw = (json.remotes as Record<string, unknown>[]).find((r) => r.name === remote.name)!;
      const next = JSON.parse(before.text) as Record<string, unknown>;
      withoutCanaries(next, [remote.name]);
      next.canaries = [
        ...((next.canaries as unknown[] | undefined) ?? []),
        { ...raw, percent, since: new Date().toISOString() },
      ];
      const draft = {
        at: new Date().toISOString(),
        by: change.by,
        credential: change.credential.label,
        action: 'canary' as const,
        remote: remote.name,
        from: liveVersion(stable),
        to: liveVersion(remote),
        reason: change.reason || `canary ${remote.version} for ${percent}% of visits`,
      };
      const after = await this.casPublish(next, before.version, [draft]);
      return { ...draft, manifestVersion: after.version };
    });
  }

  /**
   * Several groups in one change: every entry passes every check, then all go live in one
   * compare-and-swap, recorded under one release id; or none does.
   */
  release(entries: readonly PublishedEntry[], change: Change): Promise<Release> {
    return this.serialized(async () => {
      const id = newReleaseId();
      const changes = await this.publish(entries, {
        ...change,
        reason:
          change.reason || `release ${entries.map((e) => `${e.name} ${e.version}`).join(', ')}`,
        action: 'deploy',
        release: id,
      });
      return { release: id, manifestVersion: changes[0]!.manifestVersion, changes };
    });
  }

  /**
   * Takes a release back as one: every group it changed returns to the version it had before, in
   * one compare-and-swap (itself a release). Refused when a group has moved on since, or was not
   * live before the release.
   */
  rollbackRelease(id: string, change: Change): Promise<Release> {
    return this.serialized(async () => {
      const released = (await this.options.history()).filter((e) => e.release === id);
      if (released.length === 0) {
        throw new RefusedError(
          404,
          'no_such_release',
          `there is no release "${id}" in the history`,
        );
      }
      authorize(
        change.credential,
        released.map((e) => e.remote),
      );
      const live = await this.options.current();
      const targets: PublishedEntry[] = [];
      for (const entry of released) {
        const now = live.manifest.remotes.find((r) => r.name === entry.remote);
        if (now?.version !== entry.to.version || now.entry !== entry.to.entry) {
          throw new RefusedError(
            409,
            'moved_on',
            `"${entry.remote}" has changed since release ${id} (it is ${now ? now.version : 'not deployed'} now): roll it back on its own`,
          );
        }
        if (!entry.from) {
          throw new RefusedError(
            422,
            'nothing_before',
            `"${entry.remote}" was not live before release ${id}: there is no version to go back to`,
          );
        }
        targets.push({ name: entry.remote, ...entry.from });
      }
      const rollback = newReleaseId();
      const changes = await this.publish(targets, {
        ...change,
        reason: change.reason || `roll back release ${id}`,
        action: 'rollback',
        release: rollback,
      });
      return { release: rollback, manifestVersion: changes[0]!.manifestVersion, changes };
    });
  }

  rollback(name: string, to: string | undefined, change: Change): Promise<HistoryEntry> {
    return this.serialized(async () => {
      authorize(change.credential, [name]);
      const live = await this.options.current();
      const canary = live.canaries.find((c) => c.remote.name === name);
      if (canary && to === undefined) {
        return this.endCanary(live, canary.remote.name, change.base, {
          by: change.by,
          credential: change.credential,
          reason: change.reason || `end the canary of ${canary.remote.version}`,
        });
      }
      const current = live.manifest.remotes.find((r) => r.name === name)?.version;
      const target = rollbackTarget(await this.options.history(name), current, to);
      if (!target) {
        throw new RefusedError(
          404,
          'no_such_version',
          to
            ? `"${name}" has never been live at ${to}`
            : `"${name}" has no earlier version in the history`,
        );
      }
      // The version goes back exactly as it was live: its Node build must still be the pinned file.
      const [done] = await this.publish([{ name, ...target }], {
        ...change,
        reason: change.reason || `roll back to ${target.version}`,
        action: 'rollback',
      });
      return done!;
    });
  }

  history(remote?: string): Promise<HistoryEntry[]> {
    return this.options.history(remote);
  }

  /** Ends a group's canary: every visit gets the stable version again. */
  private async endCanary(
    live: LiveManifest,
    name: string,
    base: string,
    change: { by: string; reason: string; credential: Credential },
  ): Promise<HistoryEntry> {
    if (base !== live.version) {
      throw new RefusedError(
        409,
        'stale_base',
        `the live manifest is at version ${live.version}, not ${base}: read it again and retry`,
      );
    }
    const canary = live.canaries.find((c) => c.remote.name === name)!;
    const stable = live.manifest.remotes.find((r) => r.name === name)!;
    const json = JSON.parse(live.text) as Record<string, unknown>;
    withoutCanaries(json, [name]);
    const draft = {
      at: new Date().toISOString(),
      by: change.by,
      credential: change.credential.label,
      action: 'rollback' as const,
      remote: name,
      from: liveVersion(canary.remote),
      to: liveVersion(stable),
      reason: change.reason,
    };
    const after = await this.casPublish(json, live.version, [draft]);
    return { ...draft, manifestVersion: after.version };
  }

  /**
   * The automatic rollback of a canary whose errors passed the threshold: the same change as a
   * team's rollback, made by the site, serialized with every other change.
   */
  rollBackCanary(name: string, version: string, reason: string): Promise<HistoryEntry | null> {
    return this.serialized(async () => {
      const live = await this.options.current();
      const canary = live.canaries.find((c) => c.remote.name === name);
      if (canary?.remote.version !== version) return null;
      return this.endCanary(live, name, live.version, { by: 'site', reason, credential: SITE });
    });
  }
}
