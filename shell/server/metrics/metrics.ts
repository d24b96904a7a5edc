/**
 * The site server's metrics in Prometheus' text format (`GET /_metrics` with METRICS_TOKEN), and
 * the error counts over a sliding window that a canary's automatic rollback reads.
 *
 * Every label takes values from a bounded set: a kind of route (never the raw path), a status
 * class, or a group and version that were live in the manifest. A label built from what a client
 * sends would let anyone grow the server's memory and every scrape without bound.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LOG_BUFFER_BYTES, droppedSinceLastCall } from '@site/serving/request-log';
import type { CanaryStatusAnswer } from '@site/contracts/deploy-api';
import { registerCanaryGauges } from '../canary/gauges';
import type { LiveManifest } from '../control-plane';
import { MAX_WINDOW_MS, SlidingCounts } from './sliding-counts';

/** What a request was for, as the request counter labels it. */
export type RouteKind = 'page' | 'asset' | 'api' | 'deploy' | 'other';
export type RenderFailure = 'error' | 'timeout';
export type BeaconKind = 'page-error' | 'remote-load-failed';
export const BEACON_KINDS: readonly BeaconKind[] = ['page-error', 'remote-load-failed'];
/**
 * Why a report was not counted as an error: not a report (invalid, too_large), too many from one
 * address (rate_limited), or one that moves nothing: without a valid view token (no_token), its
 * token counted before (replayed), or naming another group or version than its token's (mismatch).
 */
export type BeaconRefusal =
  'invalid' | 'too_large' | 'rate_limited' | 'no_token' | 'replayed' | 'mismatch';
/** The policy's directives a violation is counted under; any other is "other". */
export const POLICY_DIRECTIVES = [
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'connect-src',
  'worker-src',
  'frame-ancestors',
  'base-uri',
  'object-src',
  'form-action',
] as const;
/** Why a violation report was not counted: not a report, too big, or too many from one address. */
export type PolicyReportRefusal = 'invalid' | 'too_large' | 'rate_limited';
/**
 * A deploy API call that changes the manifest (one group, several at once, or back), or checks a
 * version for a preview without changing it.
 */
export type DeployAction = 'deploy' | 'preview' | 'release' | 'rollback';
/** How a deploy API call that changes the manifest ended. */
export type DeployOutcome = 'ok' | 'conflict' | 'refused' | 'unauthorized' | 'failed';

/** The group of a page no remote owns (home, about, contact, the 404 page). */
export const SHELL_GROUP = 'shell';
/** The label of a beacon whose group or version was not live. */
export const UNKNOWN = 'unknown';

/**
 * A group's version counts as live for beacons this long after it left the manifest: a page
 * opened before a deploy or a rollback still reports under the version it runs.
 */
const RECENTLY_LIVE_MS = MAX_WINDOW_MS;

const key = (group: string, version: string) => `${group}@${version}`;

/** The live manifest, or undefined while its store cannot be read. */
const currentOf = async (live: SiteMetricsOptions['live']): Promise<LiveManifest | undefined> => {
  try {
    return await live();
  } catch {
    return undefined;
  }
};

const statusClass = (status: number): string =>
  status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';

export interface SiteMetricsOptions {
  /** The live manifest (read at scrape time and when a beacon arrives). */
  live: () => LiveManifest | Promise<LiveManifest> | undefined;
  /** The page cache's size: entries, and bytes as counted against its limit. */
  cacheSize: () => { entries: number; bytes: number };
  now?: () => number;
  /** Node's process metrics (CPU, memory, event loop, handles); on unless a test turns them off. */
  processMetrics?: boolean;
}

export class SiteMetrics {
  readonly registry = new Registry();
  private readonly now: () => number;
  private readonly requests: Counter<'kind' | 'status'>;
  private readonly composition: Histogram<'group' | 'version'>;
  private readonly renderFailures: Counter<'group' | 'version' | 'reason'>;
  private readonly cacheLookups: Counter<'result'>;
  private readonly lastGood: Counter<'group'>;
  /** Each group whose pages stood in for it: how many since this server started, and when last. */
  private readonly lastGoodSeen = new Map<string, { served: number; lastAt: number }>();
  private readonly deploys: Counter<'action' | 'outcome'>;
  private readonly beacons: Counter<'group' | 'version' | 'kind'>;
  private readonly beaconsRefused: Counter<'reason'>;
  private readonly policyViolations: Counter<'group' | 'directive'>;
  private readonly policyReportsRefused: Counter<'reason'>;
  private readonly recentBeacons: SlidingCounts;
  private readonly recentFailures: SlidingCounts;
  /** `group@version` → when it was last seen in the live manifest. */
  private readonly liveSeen = new Map<string, number>();

  constructor(private readonly options: SiteMetricsOptions) {
    this.now = options.now ?? Date.now;
    this.recentBeacons = new SlidingCounts(this.now);
    this.recentFailures = new SlidingCounts(this.now);
    const registers = [this.registry];
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'site_http_requests_total',
      help: 'Requests answered, by what they were for (page, asset, api, deploy, other) and status class',
      labelNames: ['kind', 'status'],
      registers,
    });
    this.composition = new Histogram({
      name: 'site_page_composition_seconds',
      help: 'Time to compose a page not in the cache (render and layout), by the group that owns it ("shell" for the shell\'s pages) and its version',
      labelNames: ['group', 'version'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.renderFailures = new Counter({
      name: 'site_render_failures_total',
      help: 'Pages whose group could not be rendered (answered with the notice), by group, version and reason (error, timeout)',
      labelNames: ['group', 'version', 'reason'],
      registers,
    });
    this.lastGood = new Counter({
      name: 'site_pages_last_good_served_total',
      help: 'Pages served from their last good composition because their group could not be rendered (its host down or slow, a render error), by group',
      labelNames: ['group'],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'site_page_cache_requests_total',
      help: 'Page cache look-ups: hit (composed before, or being composed for another request) or miss',
      labelNames: ['result'],
      registers,
    });
    const droppedLines = droppedSinceLastCall();
    new Counter({
      name: 'site_log_lines_dropped_total',
      help: `Log lines dropped because standard error was not taken in (more than ${LOG_BUFFER_BYTES / 1024 / 1024} MB waiting)`,
      registers,
      collect() {
        this.inc(droppedLines());
      },
    });
    const { cacheSize } = options;
    new Gauge({
      name: 'site_page_cache_entries',
      help: 'Composed pages in the cache',
      registers,
      collect() {
        this.set(cacheSize().entries);
      },
    });
    new Gauge({
      name: 'site_page_cache_bytes',
      help: 'Bytes of composed pages in the cache, as counted against its limit',
      registers,
      collect() {
        this.set(cacheSize().bytes);
      },
    });
    this.deploys = new Counter({
      name: 'site_deploys_total',
      help: 'Deploy API calls that change the live manifest, by action (deploy, preview, release of several groups, rollback) and outcome (ok: made, or for a preview its link signed; conflict, refused, unauthorized, failed)',
      labelNames: ['action', 'outcome'],
      registers,
    });
    const live = options.live;
    new Gauge({
      name: 'site_manifest_info',
      help: 'The live manifest version (always 1)',
      labelNames: ['version'],
      registers,
      async collect() {
        const current = await currentOf(live);
        this.reset();
        if (current) this.set({ version: current.version }, 1);
      },
    });
    new Gauge({
      name: 'site_remote_info',
      help: 'Each group and the version of it that is live (always 1)',
      labelNames: ['group', 'version'],
      registers,
      async collect() {
        const current = await currentOf(live);
        this.reset();
        for (const r of current?.manifest.remotes ?? []) {
          this.set({ group: r.name, version: r.version }, 1);
        }
      },
    });
    this.beacons = new Counter({
      name: 'site_beacon_errors_total',
      help: 'Errors browsers reported to /_beacon, by group, version ("unknown" when not live) and kind (page-error, remote-load-failed)',
      labelNames: ['group', 'version', 'kind'],
      registers,
    });
    this.beaconsRefused = new Counter({
      name: 'site_beacons_refused_total',
      help: 'Reports /_beacon did not count as errors, by reason (invalid, too_large, rate_limited; no_token, replayed, mismatch: answered 204 and counted here only)',
      labelNames: ['reason'],
      registers,
    });
    this.policyViolations = new Counter({
      name: 'site_csp_violations_total',
      help: 'Content-Security-Policy violations browsers reported, by the group whose page it was ("shell" for the shell\'s pages, "unknown" for no page of the site) and directive',
      labelNames: ['group', 'directive'],
      registers,
    });
    this.policyReportsRefused = new Counter({
      name: 'site_csp_reports_refused_total',
      help: 'Violation reports not counted, by reason (invalid, too_large, rate_limited)',
      labelNames: ['reason'],
      registers,
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  request(kind: RouteKind, status: number): void {
    this.requests.inc({ kind, status: statusClass(status) });
  }

  /** A page of `group` served from its last good composition. */
  lastGoodServed(group: string): void {
    this.lastGood.inc({ group });
    const seen = this.lastGoodSeen.get(group) ?? { served: 0, lastAt: 0 };
    seen.served += 1;
    seen.lastAt = this.now();
    this.lastGoodSeen.set(group, seen);
  }

  /** The groups whose pages stood in within the last `withinMs`, for the operator. */
  lastGoodRecently(withinMs: number): { group: string; served: number; lastAt: string }[] {
    const since = this.now() - withinMs;
    return [...this.lastGoodSeen]
      .filter(([, seen]) => seen.lastAt >= since)
      .map(([group, seen]) => ({
        group,
        served: seen.served,
        lastAt: new Date(seen.lastAt).toISOString(),
      }));
  }

  cacheLookup(hit: boolean): void {
    this.cacheLookups.inc({ result: hit ? 'hit' : 'miss' });
  }

  /** A page composed for the cache; `owner` null for the shell's own pages. */
  composed(
    owner: { name: string; version: string } | null,
    shellVersion: string,
    seconds: number,
  ): void {
    this.composition.observe(
      owner
        ? { group: owner.name, version: owner.version }
        : { group: SHELL_GROUP, version: shellVersion },
      seconds,
    );
  }

  renderFailed(
    owner: { name: string; version: string } | null,
    shellVersion: string,
    reason: RenderFailure,
  ): void {
    const group = owner?.name ?? SHELL_GROUP;
    const version = owner?.version ?? shellVersion;
    this.renderFailures.inc({ group, version, reason });
    this.recentFailures.add(key(group, version));
  }

  deploy(action: DeployAction, outcome: DeployOutcome): void {
    this.deploys.inc({ action, outcome });
  }

  /** Whether `group` at `version` is live, or was within the last 15 minutes. */
  async isLive(group: string, version: string): Promise<boolean> {
    const current = await currentOf(this.options.live);
    const now = this.now();
    for (const r of current?.manifest.remotes ?? []) this.liveSeen.set(key(r.name, r.version), now);
    for (const c of current?.canaries ?? []) {
      this.liveSeen.set(key(c.remote.name, c.remote.version), now);
    }
    for (const [k, at] of this.liveSeen) {
      if (now - at > RECENTLY_LIVE_MS) this.liveSeen.delete(k);
    }
    return this.liveSeen.has(key(group, version));
  }

  /** An error a browser reported; a group or version that is not live counts as "unknown". */
  async beacon(kind: BeaconKind, group: string, version: string): Promise<void> {
    if (await this.isLive(group, version)) {
      this.beacons.inc({ group, version, kind });
      this.recentBeacons.add(key(group, version));
    } else {
      this.beacons.inc({ group: UNKNOWN, version: UNKNOWN, kind });
    }
  }

  beaconRefused(reason: BeaconRefusal): void {
    this.beaconsRefused.inc({ reason });
  }

  /** A policy violation on a page of `group` (a live group's name, "shell" or "unknown"). */
  policyViolation(group: string, directive: string): void {
    const known = (POLICY_DIRECTIVES as readonly string[]).includes(directive);
    this.policyViolations.inc({ group, directive: known ? directive : 'other' });
  }

  policyReportRefused(reason: PolicyReportRefusal): void {
    this.policyReportsRefused.inc({ reason });
  }

  /** The running canaries' figures, read from the control plane at scrape time. */
  canaries(status: () => Promise<CanaryStatusAnswer>): void {
    registerCanaryGauges(this.registry, status);
  }

  /**
   * Errors browsers reported for a group's version over the last `windowMs` (one-second steps, at
   * most 15 minutes): what a canary's automatic rollback compares with its threshold.
   */
  beaconErrors(group: string, version: string, windowMs: number): number {
    return this.recentBeacons.count(key(group, version), windowMs);
  }

  /** Render failures and time-outs of a group's version over the last `windowMs` (as above). */
  renderFailuresIn(group: string, version: string, windowMs: number): number {
    return this.recentFailures.count(key(group, version), windowMs);
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
