/**
 * The compare-and-swap every change of the live manifest goes through: the entries are checked
 * against the manifest the change was made against (rebased when only other groups moved since),
 * and the manifest they make goes live only if nothing else did meanwhile, with its history.
 */
import {
  DeadlinePassedError,
  StaleManifestError,
  type ControlPlane,
  type LiveManifest,
} from '../control-plane';
import { authorize, lateRefusal, refuseLate, type Change } from './change';
import { EntryChecks, type EntryCheckOptions } from './entry-checks';
import { liveVersion, type HistoryEntry } from './history';
import { RefusedError, type PublishedEntry } from './patch';

export interface DeployerOptions extends EntryCheckOptions {
  /**
   * Makes a manifest live if the live one is still `base`, together with its history entry; throws
   * StaleManifestError if not (ControlPlane.publish).
   */
  publish: ControlPlane['publish'];
  history: ControlPlane['history'];
}

/** Takes the canaries of `names` out of a manifest's JSON (the key goes when none is left). */
export function withoutCanaries(json: Record<string, unknown>, names: readonly string[]): void {
  if (!Array.isArray(json.canaries)) return;
  const kept = (json.canaries as { name?: unknown }[]).filter(
    (c) => !names.includes(String(c?.name)),
  );
  if (kept.length) json.canaries = kept;
  else delete json.canaries;
}

/** The live manifest moved on between a change's checks and its commit. */
export class RebaseError extends Error {
  constructor(readonly refusal: RefusedError) {
    super(refusal.message);
  }
}

/** How often a change is checked again when another group's change went live during its checks. */
const REBASES = 3;

export class Publisher {
  private readonly checks: EntryChecks;

  constructor(private readonly options: DeployerOptions) {
    this.checks = new EntryChecks(options);
  }

  /**
   * Every check of `entries` against the live manifest (entry-checks.ts), if no group they touch
   * has changed since `base`.
   */
  async checked(entries: readonly PublishedEntry[], base: string) {
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

  async publish(
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
  async casPublish(
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
}
