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
import type { RemoteDeployment } from '@site/contracts';
import type { Release } from '@site/contracts/deploy-api';
import type { CanaryPlan } from '@site/contracts/canary-plan';
import {
  DeadlinePassedError,
  StaleManifestError,
  type ControlPlane,
  type LiveManifest,
} from '../control-plane';
import { liveVersion, rollbackTarget, type HistoryEntry, type LiveVersion } from './history';
import { EntryChecks, type EntryCheckOptions } from './entry-checks';
import { RefusedError, type PublishedEntry } from './patch';
import { CANARY_KEYS } from '../canary-entries';

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

export interface DeployerOptions extends EntryCheckOptions {
  /**
   * Makes a manifest live if the live one is still `base`, together with its history entry; throws
   * StaleManifestError if not (ControlPlane.publish).
   */
  publish: ControlPlane['publish'];
  history: ControlPlane['history'];
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

/** The live manifest moved on between a change's checks and its commit. */
class RebaseError extends Error {
  constructor(readonly refusal: RefusedError) {
    super(refusal.message);
  }
}

/** A release's id: short enough to type, random enough never to repeat. */
const newReleaseId = (): string => `r-${randomBytes(6).toString('hex')}`;

export interface Change {
  /**
   * The manifest version the change was made against. It need not be the live one: the change is
   * refused only when a group it touches has changed since (see `rebase`).
   */
  base: string;
  reason: string;
  by: string;
  credential: Credential;
  /** The last moment the change may go live (its client gives up then); none: no limit. */
  deadline?: Date | undefined;
}

/** How often a change is checked again when another group's change went live during its checks. */
const REBASES = 3;

/** A change whose deadline has passed is refused, whatever it had done so far. */
function refuseLate(deadline: Date | undefined): void {
  if (deadline && Date.now() >= deadline.getTime()) throw lateRefusal(deadline);
}

const lateRefusal = (deadline: Date) =>
  new RefusedError(
    409,
    'deadline_passed',
    `the change's deadline ${deadline.toISOString()} passed before it could go live; nothing was changed`,
  );

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

export class Deployer {
  private readonly checks: EntryChecks;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DeployerOptions) {
    this.checks = new EntryChecks(options);
  }

  /**
   * Every check of `entries` against the live manifest (entry-checks.ts), if no group they touch
   * has changed since `base`.
   */
  private async checked(entries: readonly PublishedEntry[], base: string) {
    const names = entries.map((e) => e.name);
    for (let attempt = 1; ; attempt++) {
      const live = await this.rebase(names, base);
      try {
        return await this.checks.check(entries, live);
      } catch (error) {
        // Another group's change went live while these were checked: check again on top of it.
        if (!(error instanceof RefusedError && error.code === 'stale_base') || attempt >= REBASES) {
          throw error;
        }
      }
    }
  }

  /**
   * The live manifest's version, when no group in `names` has changed since `base`: teams
   * deploying different groups at the same moment do not refuse each other for nothing. The
   * history says what changed since `base` (every change is in it, with the manifest it made);
   * a change of one of these groups since then, or a `base` the history does not know, is refused
   * as stale: the team must look at what is live now before it changes it.
   */
  private async rebase(names: readonly string[], base: string): Promise<string> {
    const live = await this.options.current();
    if (live.version === base) return base;
    const history = await this.options.history();
    const newest = history.at(-1)?.manifestVersion;
    const at = history.findLastIndex((e) => e.manifestVersion === base);
    const stale = (why: string) =>
      new RefusedError(
        409,
        'stale_base',
        `the live manifest is at version ${newest ?? live.version}, not ${base}, and ${why}: read it again and retry`,
      );
    if (at === -1 || newest === undefined) throw stale(`${base} is not in the history`);
    const touched = history.slice(at + 1).find((e) => names.includes(e.remote));
    if (touched) {
      throw stale(
        `${touched.remote} has changed since (${touched.action} ${touched.to.version} by ${touched.by}, manifest ${touched.manifestVersion})`,
      );
    }
    return newest;
  }

  private async publish(
    entries: readonly PublishedEntry[],
    change: Change & { action: HistoryEntry['action']; release?: string },
  ): Promise<HistoryEntry[]> {
    authorize(
      change.credential,
      entries.map((e) => e.name),
    );
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.publishOnce(entries, change);
      } catch (error) {
        // Another replica made a change of other groups live between the checks and the commit.
        if (!(error instanceof RebaseError) || attempt >= REBASES) {
          throw error instanceof RebaseError ? error.refusal : error;
        }
      }
    }
  }

  private async publishOnce(
    entries: readonly PublishedEntry[],
    change: Change & { action: HistoryEntry['action']; release?: string },
  ): Promise<HistoryEntry[]> {
    refuseLate(change.deadline);
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
    const after = await this.casPublish(json, before.version, drafts, change.deadline);
    return drafts.map((draft) => ({ ...draft, manifestVersion: after.version }));
  }

  /**
   * Compare and swap: nothing else may have gone live while the checks ran (a change that did is
   * a RebaseError: the caller checks again on top of it), and nothing goes live after the
   * change's deadline.
   */
  private async casPublish(
    json: Record<string, unknown>,
    base: string,
    drafts: Omit<HistoryEntry, 'manifestVersion'>[],
    deadline: Date | undefined,
  ): Promise<LiveManifest> {
    refuseLate(deadline);
    try {
      return await this.options.publish(json, base, drafts, { deadline });
    } catch (error) {
      if (error instanceof DeadlinePassedError) throw lateRefusal(error.deadline);
      if (!(error instanceof StaleManifestError)) throw error;
      throw new RebaseError(
        new RefusedError(
          409,
          'stale_base',
          `the live manifest changed to ${error.live} while this deploy was checked: retry`,
        ),
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
  canary(
    published: PublishedEntry,
    percent: number,
    change: Change,
    plan: CanaryPlan = {},
  ): Promise<HistoryEntry> {
    return this.serialized(async () => {
      authorize(change.credential, [published.name]);
      refuseLate(change.deadline);
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
      const next: Record<string, unknown> = { ...before.json };
      withoutCanaries(next, [remote.name]);
      const since = new Date().toISOString();
      next.canaries = [
        ...((next.canaries as unknown[] | undefined) ?? []),
        {
          ...raw,
          percent,
          since,
          stepSince: since,
          ...(Object.keys(plan).length ? { plan } : {}),
        },
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
      const after = await this.casPublish(next, before.version, [draft], change.deadline).catch(
        (error: unknown) => {
          throw error instanceof RebaseError ? error.refusal : error;
        },
      );
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
          deadline: change.deadline,
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
    change: { by: string; reason: string; credential: Credential; deadline?: Date | undefined },
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
    const json: Record<string, unknown> = { ...live.json };
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
    const after = await this.casPublish(json, live.version, [draft], change.deadline).catch(
      (error: unknown) => {
        throw error instanceof RebaseError ? error.refusal : error;
      },
    );
    return { ...draft, manifestVersion: after.version };
  }

  /**
   * The canaries of `names` at `versions` as the live manifest has them, or null when any of them
   * has ended or moved on (another replica was first, or a team's change).
   */
  private liveCanaries(live: LiveManifest, canaries: readonly CanaryRef[]) {
    const found = canaries.map((ref) => live.canaries.find((c) => c.remote.name === ref.name));
    return found.every((c, i) => c?.remote.version === canaries[i]!.version)
      ? (found as NonNullable<(typeof found)[number]>[])
      : null;
  }

  /** The site's own change of canaries: one compare-and-swap, an entry per group. */
  private async siteChange(
    live: LiveManifest,
    json: Record<string, unknown>,
    changes: { name: string; action: HistoryEntry['action']; from: LiveVersion; to: LiveVersion }[],
    reason: string,
    release?: string,
  ): Promise<HistoryEntry[]> {
    const at = new Date().toISOString();
    const drafts = changes.map((c) => ({
      at,
      by: 'site',
      credential: SITE.label,
      action: c.action,
      remote: c.name,
      from: c.from,
      to: c.to,
      reason,
      ...(release ? { release } : {}),
    }));
    const after = await this.casPublish(json, live.version, drafts, undefined).catch(
      (error: unknown) => {
        throw error instanceof RebaseError ? error.refusal : error;
      },
    );
    return drafts.map((d) => ({ ...d, manifestVersion: after.version }));
  }

  /**
   * The automatic rollback of canaries judged failing (the groups of one release together): the
   * same change as a team's rollback, made by the site, serialized with every other change.
   */
  rollBackCanaries(canaries: readonly CanaryRef[], reason: string): Promise<HistoryEntry[] | null> {
    return this.serialized(async () => {
      const live = await this.options.current();
      const found = this.liveCanaries(live, canaries);
      if (!found) return null;
      const json: Record<string, unknown> = { ...live.json };
      withoutCanaries(
        json,
        found.map((c) => c.remote.name),
      );
      return this.siteChange(
        live,
        json,
        found.map((c) => ({
          name: c.remote.name,
          action: 'rollback',
          from: liveVersion(c.remote),
          to: liveVersion(live.manifest.remotes.find((r) => r.name === c.remote.name)!),
        })),
        reason,
        found[0]?.release,
      );
    });
  }

  /**
   * A step of a progressive canary, made by the site while it is healthy: the same versions for a
   * larger share of visits.
   */
  stepCanaries(
    canaries: readonly CanaryRef[],
    percent: number,
    reason: string,
  ): Promise<HistoryEntry[] | null> {
    return this.serialized(async () => {
      const live = await this.options.current();
      const found = this.liveCanaries(live, canaries);
      if (!found || found.some((c) => percent <= c.percent)) return null;
      const names = found.map((c) => c.remote.name);
      const json: Record<string, unknown> = { ...live.json };
      const stepSince = new Date().toISOString();
      json.canaries = (json.canaries as Record<string, unknown>[]).map((c) =>
        names.includes(String(c.name)) ? { ...c, percent, stepSince } : c,
      );
      return this.siteChange(
        live,
        json,
        found.map((c) => ({
          name: c.remote.name,
          action: 'canary',
          from: liveVersion(live.manifest.remotes.find((r) => r.name === c.remote.name)!),
          to: liveVersion(c.remote),
        })),
        reason,
        found[0]?.release,
      );
    });
  }

  /**
   * The last step of a progressive canary: its versions live for everyone, as its team's
   * `--promote` would make them (every check was passed when the canary started).
   */
  promoteCanaries(canaries: readonly CanaryRef[], reason: string): Promise<HistoryEntry[] | null> {
    return this.serialized(async () => {
      const live = await this.options.current();
      const found = this.liveCanaries(live, canaries);
      if (!found) return null;
      const names = found.map((c) => c.remote.name);
      const json: Record<string, unknown> = { ...live.json };
      const raws = json.canaries as Record<string, unknown>[];
      json.remotes = (json.remotes as Record<string, unknown>[]).map((r) => {
        if (!names.includes(String(r.name))) return r;
        const entry: Record<string, unknown> = { ...raws.find((c) => c.name === r.name)! };
        for (const key of CANARY_KEYS) delete entry[key];
        return entry;
      });
      withoutCanaries(json, names);
      return this.siteChange(
        live,
        json,
        found.map((c) => ({
          name: c.remote.name,
          action: 'deploy',
          from: liveVersion(live.manifest.remotes.find((r) => r.name === c.remote.name)!),
          to: liveVersion(c.remote),
        })),
        reason,
        found[0]?.release,
      );
    });
  }

  /**
   * Canaries of several groups released together: every entry passes every check, then all go
   * live for `percent` of visits in one compare-and-swap, under one release id; they are judged,
   * stepped, promoted and rolled back together.
   */
  canaryRelease(
    entries: readonly PublishedEntry[],
    percent: number,
    change: Change,
    plan: CanaryPlan = {},
  ): Promise<Release> {
    return this.serialized(async () => {
      authorize(
        change.credential,
        entries.map((e) => e.name),
      );
      const { before, json, changed } = await this.checked(entries, change.base);
      const id = newReleaseId();
      const since = new Date().toISOString();
      const next: Record<string, unknown> = { ...before.json };
      withoutCanaries(
        next,
        changed.map((r) => r.name),
      );
      const added = changed.map((remote) => {
        if (!before.manifest.remotes.some((r) => r.name === remote.name)) {
          throw new RefusedError(
            422,
            'not_live',
            `"${remote.name}" is not live: a canary runs beside a live version; deploy it first`,
          );
        }
        const raw = (json.remotes as Record<string, unknown>[]).find((r) => r.name === remote.name)!;
        return {
          ...raw,
          percent,
          since,
          stepSince: since,
          release: id,
          ...(Object.keys(plan).length ? { plan } : {}),
        };
      });
      next.canaries = [...((next.canaries as unknown[] | undefined) ?? []), ...added];
      const drafts = changed.map((remote) => ({
        at: since,
        by: change.by,
        credential: change.credential.label,
        action: 'canary' as const,
        remote: remote.name,
        from: liveVersion(before.manifest.remotes.find((r) => r.name === remote.name)!),
        to: liveVersion(remote),
        reason:
          change.reason ||
          `canary ${changed.map((r) => `${r.name} ${r.version}`).join(', ')} for ${percent}% of visits`,
        release: id,
      }));
      const after = await this.casPublish(next, before.version, drafts, change.deadline).catch(
        (error: unknown) => {
          throw error instanceof RebaseError ? error.refusal : error;
        },
      );
      return {
        release: id,
        manifestVersion: after.version,
        changes: drafts.map((d) => ({ ...d, manifestVersion: after.version })),
      };
    });
  }
}

/** A canary as the site names it when it changes it: its group and version. */
export interface CanaryRef {
  name: string;
  version: string;
}
