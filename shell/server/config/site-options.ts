import path from 'node:path';
import type { Judgment } from '@site/contracts/canary-judgment';
import type { RouteTableLimits } from '../deploy/table-rules';
import { LAST_GOOD_DEFAULTS, type LastGoodSettings } from '../pages/last-good';
import type { RenderLimits } from '../render/pools';

/** What a site server is made with (main.ts makes it from the settings; tests from their own). */
export interface SiteOptions {
  /** The shell's build: `public/` (what visitors may fetch) and `server/` (its Node build). */
  shellDist: string;
  /**
   * Where the live manifest lives: `<deployDir>/remotes.json`; with a database, what an empty one
   * starts from.
   */
  deployDir: string;
  /** PostgreSQL shared by replicas for the live manifest and its history; files when absent. */
  databaseUrl?: string | undefined;
  /** The mail-service, for `/api/*`. */
  apiTarget: string;
  /** The site's public origin, for canonical links, Open Graph URLs and the sitemap. */
  siteUrl: string;
  /** Time limit of one page's render, remote code included, counted from the render's start. */
  renderTimeoutMs?: number;
  /** Time limit of fetching one of a remote's files. */
  fetchTimeoutMs?: number;
  /** Render processes of the shell's own (frames and the shell's pages). */
  renderWorkers?: number;
  /** Render processes at most per group version. */
  groupRenderWorkers?: number;
  /**
   * The largest page markup a render may give, the memory one render process may hold, the memory
   * one group's processes may hold together, and the pools a group keeps for versions not live.
   */
  render?: Partial<
    Pick<RenderLimits, 'maxPageBytes' | 'memoryMb' | 'groupMemoryMb' | 'previewPools'>
  >;
  /** The user the render processes run as, where the site server runs as root. */
  renderUser?: string;
  cache?: { maxEntries?: number; maxBytes?: number; failedTtlMs?: number };
  /**
   * A group page whose render fails stands in from its last good composition (kept beside the live
   * manifest) for `maxAgeMs` after it was last known good; `maxPages` kept, none over `maxPageBytes`.
   */
  lastGood?: Partial<LastGoodSettings>;
  /**
   * The deploy API (`/_deploy/*`); off without a token. Preview links are signed with
   * `previewSecret` (every replica must share it), by default one derived from the token.
   */
  deploy?: {
    token: string;
    allowedOrigins: readonly string[];
    previewSecret?: string | undefined;
    /** How long one change's checks may take before it is refused. */
    checkTimeoutMs?: number;
  };
  /** How large a group's route table, and what every page shows of it, may be at deploy. */
  routeLimits?: Partial<RouteTableLimits>;
  /**
   * Each group's prefixes (federation name -> prefixes); by default those of the site table
   * (`shared/contracts/site.json`), read for each deploy.
   */
  grants?: Readonly<Record<string, readonly string[]>>;
  /**
   * The proxies in front of this server whose `X-Forwarded-*` headers count (Fastify's
   * `trustProxy`: `true`, a hop count, or addresses/subnets/`loopback`).
   */
  trustProxy?: false | number | string[];
  /**
   * How canaries are judged unless their deploy says otherwise (canary-judgment.ts), and how often
   * counts are flushed to the control plane and judged (`intervalMs`).
   */
  canary?: Partial<Judgment & { intervalMs: number }>;
  /** `GET /_metrics` answers with this bearer token; off (404) without it. */
  metricsToken?: string | undefined;
  /** Reports `POST /_beacon` accepts per client address per minute. */
  beaconRateLimit?: number;
  /** Node's process metrics beside the site's (default on). */
  processMetrics?: boolean;
  /** This replica's name, sent in `X-Replica` with every answer; none when absent. */
  replicaName?: string | undefined;
  /** Each log line's message, instead of JSON lines on stderr (tests read them). */
  log?: (message: string) => void;
  /** The least level logged (default info). */
  logLevel?: string;
}

export const DEFAULTS = {
  renderTimeoutMs: 3000,
  fetchTimeoutMs: 2500,
  groupRenderWorkers: 2,
  /** A page's markup is some 50 KB; twenty times that is no page a visitor should get. */
  maxPageBytes: 1024 * 1024,
  /** A render process holds about 60 MB after a few hundred pages. */
  renderMemoryMb: 256,
  /** Four processes of 256 MB: the live version's two, and room for a canary or previews. */
  groupRenderMemoryMb: 1024,
  /** Versions of a group that are not live (previews, deploys being checked) with pools at once. */
  previewRenderPools: 2,
  renderUser: 'nobody',
  cache: { maxEntries: 2000, maxBytes: 64 * 1024 * 1024, failedTtlMs: 5000 },
  partCacheBytes: 32 * 1024 * 1024,
  /** One change's checks, every page of a large group rendered on a busy machine included. */
  deployCheckTimeoutMs: 120_000,
  lastGood: LAST_GOOD_DEFAULTS,
  /** Counts reach the control plane, and canaries are judged, every 5 s. */
  canaryIntervalMs: 5000,
  /**
   * A real table's longest title is 30 characters, label 30, group name 21; its largest group 11
   * routes of some 420 bytes each, and the scale benchmark grows one to about 1,000. Each limit is
   * four times that or more, and together they keep another owner's page within a few kilobytes.
   */
  routeLimits: {
    titleChars: 120,
    navLabelChars: 60,
    groupChars: 60,
    routes: 2000,
    tableBytes: 1024 * 1024,
  } satisfies RouteTableLimits,
  /** The site table, where each group's prefixes are granted. */
  siteTable: path.join(__dirname, '..', '..', '..', 'shared', 'contracts', 'site.json'),
};
