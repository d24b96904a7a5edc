/**
 * The site server's metrics in Prometheus' text format (`GET /_metrics` with METRICS_TOKEN), and
 * the error counts over a sliding window that a canary's automatic rollback reads.
 *
 * Every label takes values from a bounded set: a kind of route (never the raw path), a status
 * class, or a group and version that were live in the manifest. A label built from what a client
 * sends would let anyone grow the server's memory and every scrape without bound.
 */
import bearerAuth from '@fastify/bearer-auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CanaryStatusAnswer } from '@site/contracts/deploy-api';
import type { LiveManifest } from './control-plane';

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

/** The longest window the sliding counts answer for; older seconds are dropped. */
export const MAX_WINDOW_MS = 15 * 60_000;
/**
 * A group's version counts as live for beacons this long after it left the manifest: a page
 * opened before a deploy or a rollback still reports under the version it runs.
 */
const RECENTLY_LIVE_MS = MAX_WINDOW_MS;

/** Counts per group and version in one-second buckets, over the last MAX_WINDOW_MS. */
class SlidingCounts {
  private readonly buckets = new Map<string, { second: number; count: number }[]>();

  constructor(private readonly now: () => number) {}

  add(key: string): void {
    const second = Math.floor(this.now() / 1000);
    let list = this.buckets.get(key);
    if (!list) this.buckets.set(key, (list = []));
    const last = list[list.length - 1];
    if (last?.second === second) last.count += 1;
    else list.push({ second, count: 1 });
    this.prune(list, second);
  }

  /** How many in the last `windowMs` (whole seconds, this one included). */
  count(key: string, windowMs: number): number {
    const list = this.buckets.get(key);
    if (!list) return 0;
    const second = Math.floor(this.now() / 1000);
    this.prune(list, second);
    const from = second - Math.ceil(Math.min(windowMs, MAX_WINDOW_MS) / 1000) + 1;
    let total = 0;
    for (const bucket of list) if (bucket.second >= from) total += bucket.count;
    return total;
  }

  private prune(list: { second: number }[], second: number): void {
    const oldest = second - MAX_WINDOW_MS / 1000;
    let drop = 0;
    while (drop < list.length && (list[drop] as { second: number }).second <= oldest) drop += 1;
    if (drop > 0) list.splice(0, drop);
  }
}

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
  private readonly deploys: Counter<'action' | 'outcome'>;
  private readonly beacons: Counter<'group' | 'version' | 'kind'>;
  private readonly beaconsRefused: Counter<'reason'>;
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
    this.cacheLookups = new Counter({
      name: 'site_page_cache_requests_total',
      help: 'Page cache look-ups: hit (composed before, or being composed for another request) or miss',
      labelNames: ['result'],
      registers,
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
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  request(kind: RouteKind, status: number): void {
    this.requests.inc({ kind, status: statusClass(status) });
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

  /** The running canaries' figures, read from the control plane at scrape time. */
  canaries(status: () => Promise<CanaryStatusAnswer>): void {
    const registers = [this.registry];
    let reading: Promise<CanaryStatusAnswer | undefined> | undefined;
    // One read per scrape, shared by the gauges below.
    const read = () => {
      reading ??= status()
        .catch(() => undefined)
        .finally(() => setTimeout(() => (reading = undefined), 100).unref());
      return reading;
    };
    const gauge = (
      name: string,
      help: string,
      labelNames: string[],
      fill: (g: Gauge, s: CanaryStatusAnswer) => void,
    ) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          const s = await read();
          this.reset();
          if (s) fill(this, s);
        },
      });
    gauge(
      'site_canary_percent',
      'Share of visits each running canary gets, by group and version',
      ['group', 'version'],
      (g, s) => {
        for (const c of s.canaries) g.set({ group: c.group, version: c.version }, c.percent);
      },
    );
    const byRole = (pick: 'views' | 'errors') => (g: Gauge, s: CanaryStatusAnswer) => {
      for (const c of s.canaries) {
        g.set({ group: c.group, version: c.version, role: 'canary' }, c.canary[pick]);
        g.set({ group: c.group, version: c.stableVersion, role: 'stable' }, c.stable[pick]);
      }
    };
    gauge(
      'site_canary_views',
      "Page views within each running canary's window, summed over every replica, by group, version and role (canary, stable)",
      ['group', 'version', 'role'],
      byRole('views'),
    );
    gauge(
      'site_canary_errors',
      "Failed views (a report with the view's token, or a page the site could not render) within each running canary's window, by group, version and role",
      ['group', 'version', 'role'],
      byRole('errors'),
    );
    gauge(
      'site_canary_decision',
      'The last decision about each running canary (1 on its outcome: healthy, failing, inconclusive)',
      ['group', 'version', 'outcome'],
      (g, s) => {
        for (const c of s.canaries) {
          if (c.decision)
            g.set({ group: c.group, version: c.version, outcome: c.decision.outcome }, 1);
        }
      },
    );
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

/** The kind of a request, from its route (never its path) and, for pages and files, its answer. */
function routeKind(request: FastifyRequest, reply: FastifyReply): RouteKind {
  const route = request.routeOptions.url ?? '';
  if (route.startsWith('/_deploy')) return 'deploy';
  if (route.startsWith('/api')) return 'api';
  if (route.startsWith('/_')) return 'other';
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html')) return 'page';
  return route ? 'asset' : 'other';
}

/** The deploy API's calls that change the live manifest, by route. */
const DEPLOY_ROUTES: Record<string, DeployAction> = {
  '/_deploy/remotes/:name': 'deploy',
  '/_deploy/remotes/:name/rollback': 'rollback',
  '/_deploy/releases': 'release',
  '/_deploy/releases/:id/rollback': 'rollback',
};

function deployOutcome(status: number): DeployOutcome {
  if (status < 300) return 'ok';
  if (status === 401) return 'unauthorized';
  // 409: the live manifest moved on; 428: the call named no base version.
  if (status === 409 || status === 428) return 'conflict';
  return status < 500 ? 'refused' : 'failed';
}

/**
 * The site's metrics: `app.metrics` for every part that counts something, every answer counted
 * (the hook is global, so it sees every route, the deploy API's included), and `GET /_metrics`:
 * off (404) without a token, 401 without the right one (@fastify/bearer-auth, which compares in
 * constant time).
 */
export const metricsPlugin = fp<{ token?: string | undefined; processMetrics?: boolean }>(
  async (app, options) => {
    const metrics = new SiteMetrics({
      live: () => app.live(),
      // The page cache is made later (it counts its look-ups here): until then it holds nothing.
      cacheSize: () => app.pages?.cacheSize() ?? { entries: 0, bytes: 0 },
      ...(options.processMetrics === undefined ? {} : { processMetrics: options.processMetrics }),
    });
    app.decorate('metrics', metrics);
    app.addHook('onResponse', async (request, reply) => {
      metrics.request(routeKind(request, reply), reply.statusCode);
      const route =
        request.method === 'GET' ? undefined : DEPLOY_ROUTES[request.routeOptions.url ?? ''];
      // A deploy call with `preview` checks the version and signs a link; nothing goes live. (A call
      // refused for its token is never read, so it counts as the route's action.)
      const preview = (request.body as { preview?: unknown } | undefined)?.preview === true;
      const action = route === 'deploy' && preview ? 'preview' : route;
      if (action) metrics.deploy(action, deployOutcome(reply.statusCode));
    });

    const { token } = options;
    await app.register(async (scrape) => {
      if (!token) {
        scrape.get('/_metrics', (_request, reply) =>
          reply
            .code(404)
            .header('cache-control', 'no-store')
            .type('text/plain; charset=utf-8')
            .send('The metrics are off: they need METRICS_TOKEN.\n'),
        );
        return;
      }
      await scrape.register(bearerAuth, {
        keys: [token],
        errorResponse: () => ({
          error: 'The metrics need a valid token (Authorization: Bearer <METRICS_TOKEN>).',
        }),
        verifyErrorLogLevel: 'warn',
      });
      scrape.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        if (reply.statusCode === 401) reply.header('www-authenticate', 'Bearer');
        return payload;
      });
      scrape.get('/_metrics', async (_request, reply) =>
        reply.type(metrics.contentType).send(await metrics.metrics()),
      );
    });
  },
  { name: 'metrics', dependencies: ['control-plane'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    metrics: SiteMetrics;
  }
}
