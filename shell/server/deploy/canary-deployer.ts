/**
 * The canaries' changes of the live manifest: a team's canary of one group or of a release, beside
 * the stable versions, and the site's own steps, promotions and rollbacks of them as it judges them
 * (canary/judge.ts). Each is one compare-and-swap, built on the live manifest of its moment and made one
 * at a time (publisher.ts); a team's canary is checked first, beside other changes.
 */
import type { Release } from '@site/contracts/deploy-api';
import type { CanaryPlan } from '@site/contracts/canary-plan';
import type { LiveManifest } from '../control-plane';
import { CANARY_KEYS, type Canary } from '../canary/entries';
import { SITE, authorize, newReleaseId, refuseLate, type Change, type Credential } from './change';
import { liveVersion, type HistoryEntry, type LiveVersion } from './history';
import { RefusedError, type PublishedEntry } from './patch';
import { withoutCanaries, type Checked, type DeployerOptions, type Publisher } from './publisher';

/** A canary as the site names it when it changes it: its group and version. */
export interface CanaryRef {
  name: string;
  version: string;
}

export class CanaryDeployer {
  constructor(
    private readonly options: DeployerOptions,
    private readonly publisher: Publisher,
  ) {}

  /**
   * A version live for `percent` of visits beside the stable one, after every check a deploy runs
   * (the pages rendered as the canary's visitors will see them). The group must be live.
   */
  async canary(
    published: PublishedEntry,
    percent: number,
    change: Change,
    plan: CanaryPlan,
  ): Promise<HistoryEntry> {
    authorize(change.credential, [published.name]);
    refuseLate(change.deadline);
    const checked = await this.publisher.checked([published], change.base);
    const [done] = await this.startCanaries(checked, percent, change, plan);
    return done!;
  }

  /** Ends a group's canary: every visit gets the stable version again. */
  async endCanary(
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
    const [done] = await this.publisher.commit([name], live, change.deadline, (now) => {
      const json: Record<string, unknown> = { ...now.json };
      withoutCanaries(json, [name]);
      const stable = liveVersion(now.manifest.remotes.find((r) => r.name === name)!);
      const draft = {
        at: new Date().toISOString(),
        by: change.by,
        credential: change.credential.label,
        action: 'rollback' as const,
        remote: name,
        from: liveVersion(canary.remote),
        to: stable,
        reason: change.reason,
      };
      return { json, drafts: [draft] };
    });
    return done!;
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

  /**
   * A change the site makes to running canaries, while they are still live as judged (else null):
   * `edit` changes a copy of the manifest's JSON (false: nothing to do); each group's history entry
   * says `action`, from its stable version to its canary's, or back for a rollback.
   */
  private async canaryChange(
    canaries: readonly CanaryRef[],
    action: 'canary' | 'deploy' | 'rollback',
    reason: string,
    edit: (json: Record<string, unknown>, found: Canary[], names: string[]) => boolean,
  ): Promise<HistoryEntry[] | null> {
    const live = await this.options.current();
    const found = this.liveCanaries(live, canaries);
    if (!found) return null;
    const names = found.map((c) => c.remote.name);
    if (!edit({ ...live.json }, found, names)) return null;
    const release = found[0]?.release;
    // The groups are as they were when read (the commit checks it): the same edit applies to the
    // manifest of the moment, whatever other groups changed meanwhile.
    return this.publisher.commit(names, live, undefined, (now) => {
      const json: Record<string, unknown> = { ...now.json };
      edit(json, found, names);
      const at = new Date().toISOString();
      const drafts = found.map((c) => {
        const stable = liveVersion(now.manifest.remotes.find((r) => r.name === c.remote.name)!);
        const canary = liveVersion(c.remote);
        const [from, to]: LiveVersion[] =
          action === 'rollback' ? [canary, stable] : [stable, canary];
        return {
          at,
          by: 'site',
          credential: SITE.label,
          action,
          remote: c.remote.name,
          from: from!,
          to: to!,
          reason,
          ...(release ? { release } : {}),
        };
      });
      return { json, drafts };
    });
  }

  /**
   * The automatic rollback of canaries judged failing (the groups of one release together): the
   * same change as a team's rollback, made by the site, serialized with every other change.
   */
  rollBackCanaries(canaries: readonly CanaryRef[], reason: string): Promise<HistoryEntry[] | null> {
    return this.canaryChange(canaries, 'rollback', reason, (json, _found, names) => {
      withoutCanaries(json, names);
      return true;
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
    return this.canaryChange(canaries, 'canary', reason, (json, found, names) => {
      if (found.some((c) => percent <= c.percent)) return false;
      const stepSince = new Date().toISOString();
      json.canaries = (json.canaries as Record<string, unknown>[]).map((c) =>
        names.includes(String(c.name)) ? { ...c, percent, stepSince } : c,
      );
      return true;
    });
  }

  /**
   * The last step of a progressive canary: its versions live for everyone, as its team's
   * `--promote` would make them (every check was passed when the canary started).
   */
  promoteCanaries(canaries: readonly CanaryRef[], reason: string): Promise<HistoryEntry[] | null> {
    return this.canaryChange(canaries, 'deploy', reason, (json, _found, names) => {
      const raws = json.canaries as Record<string, unknown>[];
      json.remotes = (json.remotes as Record<string, unknown>[]).map((r) => {
        if (!names.includes(String(r.name))) return r;
        const entry: Record<string, unknown> = { ...raws.find((c) => c.name === r.name)! };
        for (const key of CANARY_KEYS) delete entry[key];
        return entry;
      });
      withoutCanaries(json, names);
      return true;
    });
  }

  /**
   * Canaries of several groups released together: every entry passes every check, then all go
   * live for `percent` of visits in one compare-and-swap, under one release id; they are judged,
   * stepped, promoted and rolled back together.
   */
  async canaryRelease(
    entries: readonly PublishedEntry[],
    percent: number,
    change: Change,
    plan: CanaryPlan,
  ): Promise<Release> {
    authorize(
      change.credential,
      entries.map((e) => e.name),
    );
    const checked = await this.publisher.checked(entries, change.base);
    const id = newReleaseId();
    const changes = await this.startCanaries(checked, percent, change, plan, id);
    return { release: id, manifestVersion: changes[0]!.manifestVersion, changes };
  }

  /**
   * Checked versions live for `percent` of visits beside their groups' stable ones, in one
   * compare-and-swap (under one release id when given). Every group must be live.
   */
  private startCanaries(
    checked: Checked,
    percent: number,
    change: Change,
    plan: CanaryPlan,
    release?: string,
  ): Promise<HistoryEntry[]> {
    const { changed } = checked;
    const names = changed.map((r) => r.name);
    return this.publisher.commit(names, checked.before, change.deadline, (live) => {
      // Put onto the manifest of the moment, so the checks against other groups hold now too.
      const patched = this.publisher.onto(live, checked);
      const since = new Date().toISOString();
      const next: Record<string, unknown> = { ...live.json };
      withoutCanaries(next, names);
      const added = changed.map((remote) => {
        if (!live.manifest.remotes.some((r) => r.name === remote.name)) {
          throw new RefusedError(
            422,
            'not_live',
            `"${remote.name}" is not live: a canary runs beside a live version; deploy it first`,
          );
        }
        const raw = (patched.remotes as Record<string, unknown>[]).find(
          (r) => r.name === remote.name,
        )!;
        return {
          ...raw,
          percent,
          since,
          stepSince: since,
          ...(release ? { release } : {}),
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
        from: liveVersion(live.manifest.remotes.find((r) => r.name === remote.name)!),
        to: liveVersion(remote),
        reason:
          change.reason ||
          `canary ${release ? changed.map((r) => `${r.name} ${r.version}`).join(', ') : remote.version} for ${percent}% of visits`,
        ...(release ? { release } : {}),
      }));
      return { json: next, drafts };
    });
  }
}
