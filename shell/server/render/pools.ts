/**
 * The site server's render processes, by whose code they run: one pool for the shell (the frame of
 * every page and the shell's own pages) and one per version of each group (that group's pages, and
 * nothing else). A team's code never shares a process with another team's, or with the shell's, so
 * nothing it does can reach another group's renders, answers or failures.
 *
 * A group's pool is made when one of its pages is first rendered (a visit, a deploy's checks, a
 * preview) and retired when its version leaves the live manifest (a new version, a rollback, an
 * ended canary): its processes finish what they hold and stop, so nothing of an old version's code
 * outlives it. A pool that was never live (a preview, a refused deploy) stops once unused.
 *
 * What a group holds is bounded, however many versions it deploys: besides its live version and
 * its canaries, at most `previewPools` pools of versions that are not live (the least recently used
 * is retired first; a preview whose pool was retired gets a new one when its link is next opened),
 * and all its pools together at most `groupMemoryMb` of processes (budget.ts).
 */
import { chmod, copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RemoteDeployment } from '@site/contracts';
import { ProcessBudget } from './budget';
import { RenderPool } from './pool';
import type { RenderPoolOptions } from './process';
import { checkServerPin } from './server-pin';
import type { RenderWall } from './launcher';
import type { Logger } from '../http/logger';

/** The remote's Node build, the one file of a version folder a render process runs. */
export const SERVER_BUILD = 'server/pages.js';

/** What makes two entries the same code: anything else is another version to its pool. */
export const remoteIdentity = (remote: RemoteDeployment): string =>
  `${remote.name}@${remote.version}#${remote.serverIntegrity ?? 'unpinned'}@${remote.entry}`;

export interface RenderLimits {
  timeoutMs: number;
  /** The largest page markup a render may send. */
  maxPageBytes: number;
  /** Memory one render process may hold, in MB. */
  memoryMb: number;
  /** Memory all of one group's render processes may hold together, in MB (at least `memoryMb`). */
  groupMemoryMb: number;
  /** Pools a group keeps for versions that are not live (previews, deploys being checked). */
  previewPools: number;
}

export interface RenderPoolsOptions extends RenderLimits {
  /** The shell's Node build folder (`render.js`). */
  shellServerDir: string;
  wall: RenderWall;
  /** Processes of the shell's pool, and at most per group version. */
  shellProcesses: number;
  groupProcesses: number;
  /** Fetches a remote's Node build from its origin (the site server checks origin and size). */
  fetchBuild(url: string, remote: RemoteDeployment): Promise<string>;
  log: Logger;
  /** How long an idle group process, or a pool that is not live, is kept (60 s). */
  idleMs?: number;
}

/** Room for the envelope around a page's markup in a reply (its meta, its failure, JSON escapes). */
const REPLY_OVERHEAD = 64 * 1024;
const SWEEP_MS = 5000;

/** The folders the shell's Node build is copied to: `site-render-<pid of the server>-<random>`. */
const BUNDLE_DIR_PREFIX = 'site-render-';
const BUNDLE_DIR = new RegExp(`^${BUNDLE_DIR_PREFIX}(\\d+)-`);

/** Whether process `pid` is running (signal 0 checks without sending anything). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the copies left by site servers that ended without closing (killed, or crashed): a
 * server that is restarted again and again would otherwise leave one copy of the shell's Node
 * build in the temporary folder each time. A folder of a server still running is left alone.
 */
export async function removeLeftBundleDirs(tmp: string): Promise<void> {
  const names = await readdir(tmp).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = BUNDLE_DIR.exec(name)?.[1];
      if (pid === undefined || running(Number(pid))) return;
      await rm(path.join(tmp, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

interface GroupPool {
  pool: RenderPool;
  remote: RemoteDeployment;
  lastUsed: number;
  /** Whether it was ever part of the live manifest (its retirement is then immediate). */
  wasLive: boolean;
}

export class RenderPools {
  private shellPool: RenderPool;
  private readonly groups = new Map<string, GroupPool>();
  private readonly budgets = new Map<string, ProcessBudget>();
  /** Retired pools still finishing what they hold: their processes count until they are gone. */
  private readonly retiring = new Set<RenderPool>();
  private readonly sweep: NodeJS.Timeout;
  private liveKeys = new Set<string>();
  private closed = false;

  private constructor(
    private readonly options: RenderPoolsOptions,
    /** A private copy of the shell's Node build that the render processes' user can read. */
    private readonly bundleDir: string,
  ) {
    this.shellPool = new RenderPool({
      ...this.common('shell'),
      size: options.shellProcesses,
      keep: 1,
    });
    this.sweep = setInterval(() => this.retireUnused(), SWEEP_MS);
    this.sweep.unref();
  }

  /**
   * Copies the shell's Node build where the render processes may read it (a folder of its own,
   * readable by their user, which need not be able to read the checkout) and makes the pools.
   */
  static async create(options: RenderPoolsOptions): Promise<RenderPools> {
    await removeLeftBundleDirs(os.tmpdir());
    const dir = await mkdtemp(path.join(os.tmpdir(), `${BUNDLE_DIR_PREFIX}${process.pid}-`));
    await chmod(dir, 0o755);
    await copyFile(path.join(options.shellServerDir, 'render.js'), path.join(dir, 'render.js'));
    await chmod(path.join(dir, 'render.js'), 0o644);
    return new RenderPools(options, dir);
  }

  private common(name: string): Omit<RenderPoolOptions, 'size' | 'keep'> {
    const { options } = this;
    return {
      name,
      bundleDir: this.bundleDir,
      idleMs: options.idleMs ?? 60_000,
      timeoutMs: options.timeoutMs,
      maxReplyBytes: options.maxPageBytes + REPLY_OVERHEAD,
      memoryMb: options.memoryMb,
      wall: options.wall,
      log: options.log,
    };
  }

  get shell(): RenderPool {
    return this.shellPool;
  }

  /** The pool that renders this entry's pages, made on first use. */
  group(remote: RemoteDeployment): RenderPool {
    if (this.closed) throw new Error('the render pools are closed');
    const key = remoteIdentity(remote);
    let entry = this.groups.get(key);
    if (!entry) {
      const url = new URL(SERVER_BUILD, remote.entry).href;
      let code: Promise<string> | undefined;
      const pool = new RenderPool({
        ...this.common(`${remote.name}@${remote.version}`),
        size: this.options.groupProcesses,
        keep: 0,
        budget: this.budgetOf(remote.name),
        live: () => this.liveKeys.has(key),
        // A team's processes yield the processor to the site server and the shell's renders.
        niceness: 10,
        group: {
          name: remote.name,
          version: remote.version,
          url,
          code: () => {
            code ??= this.options.fetchBuild(url, remote).then((text) => {
              // Checked here, on the trusted side, before any process has the text.
              checkServerPin(url, remote, text);
              return text;
            });
            // A failure is forgotten, so the next start fetches again.
            code.catch(() => (code = undefined));
            return code;
          },
        },
      });
      entry = { pool, remote, lastUsed: Date.now(), wasLive: this.liveKeys.has(key) };
      if (!entry.wasLive) this.makeRoomFor(remote.name);
      this.groups.set(key, entry);
    }
    entry.lastUsed = Date.now();
    return entry.pool;
  }

  /**
   * The entries live now (every group's, every canary's): a pool whose entry left the live set is
   * retired at once; one that was never live is retired once unused (retireUnused).
   */
  setLive(remotes: readonly RemoteDeployment[]): void {
    this.liveKeys = new Set(remotes.map(remoteIdentity));
    for (const [key, entry] of this.groups) {
      if (this.liveKeys.has(key)) entry.wasLive = true;
      else if (entry.wasLive) this.retire(key, entry, 'it is no longer live');
    }
  }

  /** The budget all of a group's pools start their processes from. */
  private budgetOf(group: string): ProcessBudget {
    let budget = this.budgets.get(group);
    if (!budget) {
      const slots = Math.max(1, Math.floor(this.options.groupMemoryMb / this.options.memoryMb));
      budget = new ProcessBudget(slots, (waiter) => this.reclaim(group, waiter));
      this.budgets.set(group, budget);
    }
    return budget;
  }

  /** The group's pools, least recently used first, with whether each is live. */
  private poolsOf(group: string): { key: string; entry: GroupPool; live: boolean }[] {
    return [...this.groups]
      .filter(([, entry]) => entry.remote.name === group)
      .map(([key, entry]) => ({ key, entry, live: this.liveKeys.has(key) }))
      .sort((a, b) => a.entry.lastUsed - b.entry.lastUsed);
  }

  /** Retires the group's least recently used versions that are not live, to make room for one. */
  private makeRoomFor(group: string): void {
    const others = this.poolsOf(group).filter((p) => !p.live);
    const over = Math.max(0, others.length + 1 - this.options.previewPools);
    for (const { key, entry } of others.slice(0, over)) {
      this.retire(
        key,
        entry,
        `${group} keeps ${this.options.previewPools} versions that are not live`,
      );
    }
  }

  /** Ends an idle process of another of the group's pools (not live ones first) for `waiter`. */
  private reclaim(group: string, waiter: unknown): boolean {
    const pools = this.poolsOf(group).sort((a, b) => Number(a.live) - Number(b.live));
    return pools.some(({ entry }) => entry.pool !== waiter && entry.pool.yieldIdle());
  }

  private retireUnused(): void {
    for (const pool of this.retiring) if (pool.processes.length === 0) this.retiring.delete(pool);
    const idleMs = this.options.idleMs ?? 60_000;
    for (const [key, entry] of this.groups) {
      if (this.liveKeys.has(key)) continue;
      if (Date.now() - entry.lastUsed >= idleMs && entry.pool.idle) {
        this.retire(key, entry, 'it is not live and was not used for a while');
      }
    }
  }

  private retire(key: string, entry: GroupPool, why: string): void {
    this.groups.delete(key);
    this.options.log.info(`render pool ${entry.pool.name}: retired (${why})`);
    entry.pool.retire();
    if (entry.pool.processes.length > 0) this.retiring.add(entry.pool);
  }

  /** The group pools that take renders (not the retired ones finishing theirs). */
  get openGroupPools(): RenderPool[] {
    return [...this.groups.values()].map((g) => g.pool);
  }

  /** Every group pool with processes or in use (retired ones finishing too), for the metrics and tests. */
  get groupPools(): RenderPool[] {
    for (const pool of this.retiring) if (pool.processes.length === 0) this.retiring.delete(pool);
    return [...this.groups.values()].map((g) => g.pool).concat([...this.retiring]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweep);
    await Promise.all([this.shellPool.close(), ...this.groupPools.map((p) => p.close())]);
    this.groups.clear();
    await rm(this.bundleDir, { recursive: true, force: true });
  }
}
