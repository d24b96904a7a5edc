/**
 * The compare-and-swap every change of the live manifest goes through. A change's checks (fetches,
 * pins, server renders: seconds, for a large group longer) run beside every other change's, each
 * within its time limit; only the commit is one at a time in this process: it reads the live
 * manifest, confirms that no group the change touches has moved since its checks, puts the checked
 * entries onto whatever other groups made live meanwhile (no fetch, no render: quick), and swaps.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeadlinePassedError,
  StaleManifestError,
  type ControlPlane,
  type LiveManifest,
} from '../control-plane';
import type { RemoteDeployment, RouteTable } from '@site/contracts';
import { authorize, lateRefusal, refuseLate, type Change } from './change';
import { EntryChecks, type EntryCheckOptions } from './entry-checks';
import { liveVersion, type HistoryEntry } from './history';
import { RefusedError, patchManifest, type PublishedEntry } from './patch';
import type { RenderPage } from './touched-page';

export interface DeployerOptions extends EntryCheckOptions {
  /**
   * Makes a manifest live if the live one is still `base`, together with its history entry; throws
   * StaleManifestError if not (ControlPlane.publish).
   */
  publish: ControlPlane['publish'];
  history: ControlPlane['history'];
  /** How long the checks of one change may take before it is refused (DEPLOY_CHECK_TIMEOUT_S). */
  checkTimeoutMs: number;
  /** A page's render against a manifest, for the page a preview opens (touched-page.ts). */
  renderPage: RenderPage;
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

/** What a change's checks passed: the manifest they ran on, its JSON with the entries in place. */
export interface Checked {
  before: LiveManifest;
  json: Record<string, unknown>;
  changed: RemoteDeployment[];
}

/** What a commit makes live, built on the live manifest of the moment. */
interface Commit {
  json: Record<string, unknown>;
  drafts: Omit<HistoryEntry, 'manifestVersion'>[];
}

/** How often a commit is tried again when another replica's change went live just before it. */
const REBASES = 3;
/** How long a replica takes at most to hear of another's change, and how often it looks. */
const NOTICE_MS = 1000;
const NOTICE_STEP_MS = 20;

const rawEntries = (json: Readonly<Record<string, unknown>>, key: 'remotes' | 'canaries') =>
  (Array.isArray(json[key]) ? json[key] : []) as Record<string, unknown>[];

/** A group's entries in a manifest (stable and canary), as text: equal text, unchanged group. */
const groupState = (json: Readonly<Record<string, unknown>>, name: string): string =>
  JSON.stringify([
    rawEntries(json, 'remotes').find((r) => r.name === name) ?? null,
    rawEntries(json, 'canaries').find((c) => c.name === name) ?? null,
  ]);

export class Publisher {
  private readonly checks: EntryChecks;
  private commits: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DeployerOptions) {
    this.checks = new EntryChecks(options);
  }

  /**
   * Runs `work` after every commit before it has ended: each commit reads the manifest the one
   * before it left. Only quick work belongs here (no fetch, no render).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.commits.then(work, work);
    this.commits = run.catch(() => undefined);
    return run;
  }

  /**
   * Every check of `entries` against the live manifest (entry-checks.ts), if no group they touch
   * has changed since `base`, within the checks' time limit: past it they are stopped and the
   * change is refused.
   */
  async checked(entries: readonly PublishedEntry[], base: string): Promise<Checked> {
    const limitMs = this.options.checkTimeoutMs;
    const names = entries.map((e) => `${e.name} ${e.version}`).join(', ');
    const controller = new AbortController();
    const timeUp = new Promise<never>((_resolve, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
        once: true,
      });
    });
    const timer = setTimeout(
      () =>
        controller.abort(
          new RefusedError(
            422,
            'check_timeout',
            `the checks of ${names} took longer than the limit of ${limitMs / 1000} s (DEPLOY_CHECK_TIMEOUT_S) and were stopped; nothing was changed`,
          ),
        ),
      limitMs,
    );
    try {
      return await Promise.race([this.checkedUntil(entries, base, controller.signal), timeUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async checkedUntil(
    entries: readonly PublishedEntry[],
    base: string,
    signal: AbortSignal,
  ): Promise<Checked> {
    const names = entries.map((e) => e.name);
    for (let attempt = 1; ; attempt++) {
      const live = await this.rebase(names, base);
      try {
        return await this.checks.check(entries, live, signal);
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

  /**
   * The checked entries of `names` put onto `live`, every other group as it is now: the checks
   * against the other groups (paths, prefixes) are made again, as they stand now.
   */
  onto(live: LiveManifest, checked: Checked): Record<string, unknown> {
    if (live.version === checked.before.version) return { ...checked.json };
    let json: Record<string, unknown> = { ...live.json };
    for (const remote of checked.changed) {
      const raw = rawEntries(checked.json, 'remotes').find((r) => r.name === remote.name)!;
      const table: RouteTable = {
        remote: remote.name,
        prefixes: raw.prefixes as RouteTable['prefixes'],
        routes: raw.routes as RouteTable['routes'],
      };
      json = patchManifest(
        json,
        {
          name: remote.name,
          entry: remote.entry,
          version: remote.version,
          ...(remote.serverIntegrity ? { serverIntegrity: remote.serverIntegrity } : {}),
        },
        table,
        this.options.shellPaths,
      ).json;
    }
    return json;
  }

  async publish(
    entries: readonly PublishedEntry[],
    change: Change & { action: HistoryEntry['action']; release?: string },
  ): Promise<HistoryEntry[]> {
    authorize(
      change.credential,
      entries.map((e) => e.name),
    );
    refuseLate(change.deadline);
    const checked = await this.checked(entries, change.base);
    const names = checked.changed.map((r) => r.name);
    return this.commit(names, checked.before, change.deadline, (live) => {
      const json = this.onto(live, checked);
      // A group's new version replaces its canary too: a deploy of the canary's version promotes it.
      withoutCanaries(json, names);
      const at = new Date().toISOString();
      const drafts = checked.changed.map((remote) => {
        const previous = live.manifest.remotes.find((r) => r.name === remote.name);
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
      return { json, drafts };
    });
  }

  /**
   * Resolves once the live manifest this replica reads is no longer `version` (another replica's
   * change reaches it within a second), or after that second: the swap says again if it is not.
   */
  private async heardOf(version: string): Promise<void> {
    for (let waited = 0; waited < NOTICE_MS; waited += NOTICE_STEP_MS) {
      if ((await this.options.current()).version !== version) return;
      await sleep(NOTICE_STEP_MS);
    }
  }

  /**
   * Makes what `build` makes of the live manifest live, one commit at a time, if no group in
   * `names` has changed since `since` (the manifest the change's checks ran on); nothing goes live
   * after the change's deadline. A change of other groups meanwhile is built upon.
   */
  commit(
    names: readonly string[],
    since: LiveManifest,
    deadline: Date | undefined,
    build: (live: LiveManifest) => Commit,
  ): Promise<HistoryEntry[]> {
    return this.exclusive(async () => {
      for (let attempt = 1; ; attempt++) {
        refuseLate(deadline);
        const live = await this.options.current();
        const moved = names.find((n) => groupState(live.json, n) !== groupState(since.json, n));
        if (moved) {
          throw new RefusedError(
            409,
            'stale_base',
            `"${moved}" changed (manifest ${live.version}) while this change was checked: read it again and retry`,
          );
        }
        const { json, drafts } = build(live);
        try {
          const after = await this.options.publish(json, live.version, drafts, { deadline });
          return drafts.map((draft) => ({ ...draft, manifestVersion: after.version }));
        } catch (error) {
          if (error instanceof DeadlinePassedError) throw lateRefusal(error.deadline);
          if (!(error instanceof StaleManifestError)) throw error;
          if (attempt >= REBASES) {
            throw new RefusedError(
              409,
              'stale_base',
              `the live manifest changed to ${error.live} while this change was made: retry`,
            );
          }
          // Another replica made a change live between this read and the swap: build on it, once
          // this replica has heard of it.
          await this.heardOf(live.version);
        }
      }
    });
  }
}
