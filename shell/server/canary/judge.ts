/**
 * Canary releases: a version of a group live for a share of visits beside the stable one.
 *
 * A visitor is placed in a cohort once (a number 0-99 in a signed cookie, given with the first page
 * while a canary runs) and sees, for the whole visit, every canary whose share is above its number:
 * the server's HTML and the manifest the browser navigates with agree. Requests from crawlers (by
 * their user agent) and requests that carry no cookie and are not given one get the stable version,
 * so the indexed HTML and the sitemap stay stable. A cookie the site did not sign is no cohort.
 *
 * Judged site-wide (CanaryJudge below, canary-judgment.ts): the views and failed views every replica
 * counts (canary/counts.ts) are summed in the control plane, and one replica at a time (a lease)
 * decides for each canary: healthy (stepped up when its plan says so, promoted at 100 %), failing
 * (rolled back at once) or inconclusive (it holds).
 */
import { randomInt } from 'node:crypto';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import { isbot } from 'isbot';
import { MAX_CANARY_WINDOW_SECONDS, type CanaryPlan } from '@site/contracts/canary-plan';
import type { CanaryDecision, CanaryStatusAnswer } from '@site/contracts/deploy-api';
import { CANARY_KEYS, type Canary } from './entries';
import type { CanaryCountStore, CanaryCounter, StoredDecision } from './counts';
import { figures, judge, type Counts, type Judgment } from '@site/contracts/canary-judgment';
import { live, manifestText, type LiveManifest } from '../control-plane';
import type { Logger } from '../http/logger';
import type { CanaryRef } from '../deploy/canary-deployer';
import type { ViewSigner } from './view-tokens';

export const COHORT_COOKIE = 'site_cohort';
/** A visit: the cohort is kept for a day. */
const COHORT_SECONDS = 24 * 60 * 60;

/** The visitor's cohort from its signed cookie, or null. */
export function cohortOf(cookieHeader: string | undefined, signer: ViewSigner): number | null {
  if (!cookieHeader) return null;
  try {
    return signer.cohortOf(parseCookie(cookieHeader)[COHORT_COOKIE]);
  } catch {
    return null;
  }
}

/**
 * The cohort of a request while canaries run: its cookie's, or a new one for a visitor (with the
 * cookie to set), or null for a crawler, which always gets the stable version.
 */
export function placeVisitor(
  cookieHeader: string | undefined,
  userAgent: string | undefined,
  secure: boolean,
  signer: ViewSigner,
): { cohort: number | null; setCookie?: string } {
  const known = cohortOf(cookieHeader, signer);
  if (known !== null) return { cohort: known };
  if (!userAgent || isbot(userAgent)) return { cohort: null };
  const cohort = randomInt(100);
  return {
    cohort,
    setCookie: serializeCookie(COHORT_COOKIE, signer.cohortValue(cohort), {
      httpOnly: true,
      secure,
      sameSite: 'lax',
      path: '/',
      maxAge: COHORT_SECONDS,
    }),
  };
}

/**
 * The manifest a cohort sees: the live one with each canary whose share is above the cohort's
 * number in its group's place (and no canary list: the browser has no use for it). The same text
 * on every replica, so every replica caches its pages under the same version. A few are kept.
 */
export class CanaryViews {
  private readonly made = new Map<string, LiveManifest>();

  view(base: LiveManifest, cohort: number | null): LiveManifest {
    if (base.canaries.length === 0 || cohort === null) return base;
    const shown = base.canaries.filter((c) => cohort < c.percent);
    if (shown.length === 0) return base;
    const key = `${base.version}|${shown.map((c) => c.remote.name).join(',')}`;
    let made = this.made.get(key);
    if (!made) {
      const json: Record<string, unknown> = { ...base.json };
      const raws = (json.canaries ?? []) as Record<string, unknown>[];
      delete json.canaries;
      json.remotes = (json.remotes as Record<string, unknown>[]).map((r) => {
        if (!shown.some((c) => c.remote.name === r.name)) return r;
        const entry = { ...raws.find((c) => c.name === r.name)! };
        for (const k of CANARY_KEYS) delete entry[k];
        return entry;
      });
      made = live(manifestText(json));
      if (this.made.size >= 16) this.made.delete(this.made.keys().next().value!);
      this.made.set(key, made);
    }
    return made;
  }
}

/** A canary's judgment settings: its plan's, else the site's. */
export function judgmentOf(plan: CanaryPlan, defaults: Judgment): Judgment {
  return {
    maxErrorRate: plan.maxErrorRate ?? defaults.maxErrorRate,
    minViews: plan.minViews ?? defaults.minViews,
    windowSeconds: plan.windowSeconds ?? defaults.windowSeconds,
  };
}

export interface CanaryJudgeOptions {
  current(): Promise<LiveManifest>;
  counter: CanaryCounter;
  store: CanaryCountStore;
  /** This replica's name for the lease. */
  holder: string;
  defaults: Judgment;
  /** How often counts are flushed and, by the lease holder, canaries judged. */
  intervalMs: number;
  /** Each takes a canary, or the canaries of one release together. */
  rollBack(canaries: CanaryRef[], reason: string): Promise<unknown>;
  step(canaries: CanaryRef[], percent: number, reason: string): Promise<unknown>;
  promote(canaries: CanaryRef[], reason: string): Promise<unknown>;
  log: Logger;
  now?: () => number;
}

interface Judged {
  canary: Canary;
  stableVersion: string;
  judgment: Judgment;
  counts: { canary: Counts; stable: Counts };
}

/**
 * Every replica runs one: each interval it adds its counts to the store, and if it holds (or can
 * take) the judging lease, it judges every canary from the sums. The lease lasts three intervals,
 * so when the judging replica dies another takes over within that; a replica that dies loses the
 * counts of its last interval, never a decision (each is made from the store and recorded there).
 */
export class CanaryJudge {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private stopped = false;
  private lastPrune = 0;
  private readonly now: () => number;

  constructor(private readonly options: CanaryJudgeOptions) {
    this.now = options.now ?? Date.now;
  }

  /** This replica's name in the lease. */
  get holder(): string {
    return this.options.holder;
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops judging; the lease is left to expire, as a replica's death would leave it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.options.counter.flush().catch(() => undefined);
  }

  /** One interval's work; resolves to whether this replica judged. */
  async tick(): Promise<boolean> {
    if (this.busy || this.stopped) return false;
    this.busy = true;
    try {
      const { counter, store, log } = this.options;
      try {
        await counter.flush();
      } catch (error) {
        log.warn(`site: canary counts kept for the next flush: ${String(error)}`);
      }
      let current: LiveManifest;
      try {
        current = await this.options.current();
        if (current.canaries.length === 0) return false;
        if (!(await store.lease(this.options.holder, this.options.intervalMs * 3))) return false;
      } catch {
        return false; // The control plane is away: nothing can be decided now anyway.
      }
      for (const set of releases(current.canaries)) {
        try {
          await this.decide(current, set);
        } catch (error) {
          // Another replica moved the manifest first, or the store is away: the next tick sees.
          log.warn(`site: canary ${namesOf(set)} not judged yet: ${String(error)}`);
        }
      }
      if (this.now() - this.lastPrune > 60_000) {
        this.lastPrune = this.now();
        await store
          .prune(Math.floor(this.now() / 1000) - MAX_CANARY_WINDOW_SECONDS - 1)
          .catch(() => undefined);
      }
      return true;
    } finally {
      this.busy = false;
    }
  }

  private async figures(current: LiveManifest, canary: Canary): Promise<Judged> {
    const judgment = judgmentOf(canary.plan, this.options.defaults);
    const name = canary.remote.name;
    const stableVersion = current.manifest.remotes.find((r) => r.name === name)?.version ?? '';
    const since = Date.parse(canary.since);
    const from = Math.floor(
      Math.max(this.now() - judgment.windowSeconds * 1000, Number.isNaN(since) ? 0 : since) / 1000,
    );
    const [c, s] = await Promise.all([
      this.options.store.sum(name, canary.remote.version, from),
      this.options.store.sum(name, stableVersion, from),
    ]);
    return { canary, stableVersion, judgment, counts: { canary: c, stable: s } };
  }

  /**
   * Judges a canary, or the canaries of one release together: any failing rolls them all back;
   * only when all are healthy are they stepped up (by the first one's plan, which they share).
   */
  private async decide(current: LiveManifest, set: Canary[]): Promise<void> {
    const at = new Date(this.now()).toISOString();
    const judged = await Promise.all(set.map((c) => this.figures(current, c)));
    const decisions = judged.map((j) => judge(j.counts.canary, j.counts.stable, j.judgment));
    const refs = set.map((c) => ({ name: c.remote.name, version: c.remote.version }));
    const record = (i: number, outcome: CanaryDecision['outcome'], reason: string) =>
      this.options.store.decide({
        group: refs[i]!.name,
        version: refs[i]!.version,
        at,
        outcome,
        reason,
      });
    const failing = decisions.findIndex((d) => d.outcome === 'failing');
    if (failing !== -1) {
      const others = refs.filter((_, i) => i !== failing).map((r) => r.name);
      const reason = `automatic rollback: ${set.length > 1 ? `${refs[failing]!.name}: ` : ''}${decisions[failing]!.reason}${others.length ? `; ${others.join(', ')} with it` : ''}`;
      await this.options.rollBack(refs, reason);
      await Promise.all(
        refs.map((_, i) => record(i, 'failing', i === failing ? decisions[i]!.reason : reason)),
      );
      this.options.log.warn(`site: canary ${namesOf(set)} rolled back (${reason})`);
      return;
    }
    await Promise.all(decisions.map((d, i) => record(i, d.outcome, d.reason)));
    const { plan } = set[0]!;
    if (decisions.some((d) => d.outcome !== 'healthy') || !plan.steps || !plan.intervalSeconds) {
      return;
    }
    const percent = Math.max(...set.map((c) => c.percent));
    const next = plan.steps.find((p) => p > percent);
    const due = Math.max(...set.map((c) => Date.parse(c.stepSince))) + plan.intervalSeconds * 1000;
    if (next === undefined || Number.isNaN(due) || this.now() < due) return;
    const why = decisions.map((d) => d.reason).join('; ');
    if (next === 100) {
      await this.options.promote(refs, `promoted: ${why}`);
      this.options.log.info(`site: canary ${namesOf(set)} promoted`);
    } else {
      await this.options.step(refs, next, `canary raised to ${next}% of visits: ${why}`);
      this.options.log.info(`site: canary ${namesOf(set)} raised to ${next}%`);
    }
  }

  /** Every running canary with its figures and last decision, and the last ended ones. */
  async status(): Promise<CanaryStatusAnswer> {
    const current = await this.options.current();
    const decisions = await this.options.store.decisions();
    const canaries: CanaryStatusAnswer['canaries'] = [];
    for (const canary of current.canaries) {
      const judged = await this.figures(current, canary);
      const { plan, remote } = canary;
      const decided = decisions.find(
        (d) => d.group === remote.name && d.version === remote.version,
      );
      const steps = (plan.steps ?? []).filter((p) => p > canary.percent);
      const due = Date.parse(canary.stepSince) + (plan.intervalSeconds ?? 0) * 1000;
      canaries.push({
        group: remote.name,
        version: remote.version,
        stableVersion: judged.stableVersion,
        percent: canary.percent,
        since: canary.since,
        steps,
        nextStepAt: steps.length && !Number.isNaN(due) ? new Date(due).toISOString() : null,
        with: current.canaries
          .filter((c) => c !== canary && c.release !== undefined && c.release === canary.release)
          .map((c) => c.remote.name),
        judgment: judged.judgment,
        canary: figures(judged.counts.canary),
        stable: figures(judged.counts.stable),
        decision: decided ? decisionOf(decided) : null,
      });
    }
    const running = new Set(current.canaries.map((c) => `${c.remote.name}@${c.remote.version}`));
    const ended = decisions.filter((d) => !running.has(`${d.group}@${d.version}`));
    return { canaries, ended };
  }
}

const decisionOf = ({ at, outcome, reason }: StoredDecision): CanaryDecision => ({
  at,
  outcome,
  reason,
});

/** The canaries judged together: those of one release, each other on its own. */
function releases(canaries: readonly Canary[]): Canary[][] {
  const sets = new Map<string, Canary[]>();
  for (const canary of canaries) {
    const key = canary.release ?? `group ${canary.remote.name}`;
    sets.set(key, [...(sets.get(key) ?? []), canary]);
  }
  return [...sets.values()];
}

const namesOf = (set: readonly Canary[]) =>
  set.map((c) => `${c.remote.name} ${c.remote.version}`).join(', ');
