import { promises as fs } from 'node:fs';
import path from 'node:path';
import pg, { type Pool } from 'pg';
import { listen, reasonOf, redactUrl, type Listener } from '@site/postgres';
import { liveVersion, type HistoryEntry } from '../deploy/history';
import {
  ControlPlaneUnavailableError,
  EMPTY,
  NO_VERSION,
  StaleManifestError,
  live,
  manifestText,
  type ControlPlane,
  type HistoryDraft,
  type LiveManifest,
  type PublishOptions,
} from './index';
import { migrate } from './migrate';
import { hasFileState, moveInFiles } from './move-in';
import { CHANNEL, commitChange, isUnreachable, type LiveRow } from './postgres-change';
import { readHistory } from './postgres-history';
import type { Logger } from '../http/logger';
import { PostgresTokenStore } from './tokens-postgres';

export interface PostgresControlPlaneOptions {
  /** `postgres://…`; the store makes its own pool unless one is given. */
  url: string;
  pool?: Pool;
  /** Where `remotes.json` is: what an empty database starts from. */
  deployDir: string;
  log?: Logger;
  /** The safety net under LISTEN: the live pointer is read this often anyway. */
  pollMs?: number;
  /** How long `start()` waits for the database before it gives up. */
  startTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The control plane shared by replicas, in PostgreSQL: every manifest version a row of
 * `manifest_versions`, the live one named by the single row of `live_manifest`, every change a row
 * of `manifest_history` (migrations/001_control_plane.sql).
 *
 * A change is one transaction: the live pointer is locked (`FOR UPDATE`) and compared with the
 * change's base, then the version, its history and the pointer are written and `manifest_live` is
 * notified, so of two replicas changing from the same base exactly one wins. Every replica LISTENs
 * on a connection of its own and reads the live manifest again when notified (a slow poll stands in
 * for a lost notification). Reads are served from memory: while the database cannot be reached a
 * replica keeps serving the last manifest it read, and a change is refused as unavailable.
 */
export class PostgresControlPlane implements ControlPlane {
  readonly tokens: PostgresTokenStore;
  private readonly pool: Pool;
  private readonly ownPool: boolean;
  private readonly log: Logger;
  private readonly seedFile: string;
  private current: LiveManifest = EMPTY;
  /** The live pointer's change count when `current` was read; -1 before the first read. */
  private seq = -1;
  private stale = true;
  private reading: Promise<LiveManifest> | undefined;
  private listener: Listener | undefined;
  private poll: NodeJS.Timeout | undefined;
  private isReachable = true;
  /** Why the last read of the live pointer failed; undefined when it succeeded. */
  private readError: unknown;
  private closed = false;

  constructor(private readonly options: PostgresControlPlaneOptions) {
    this.log = options.log ?? { info: console.error, warn: console.error, error: console.error };
    this.seedFile = path.join(options.deployDir, 'remotes.json');
    this.ownPool = !options.pool;
    this.pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.url,
        max: 4,
        connectionTimeoutMillis: 3000,
        idleTimeoutMillis: 30_000,
        // A database that stops answering fails a request in seconds instead of holding it.
        query_timeout: 10_000,
      });
    // An idle connection the server closed: the next query makes a new one.
    this.pool.on('error', () => undefined);
    this.tokens = new PostgresTokenStore(this.pool, (error, what) => {
      if (!isUnreachable(error)) return error instanceof Error ? error : new Error(String(error));
      return new ControlPlaneUnavailableError(
        `the control-plane database is unreachable: ${reasonOf(error)}; ${what}`,
      );
    });
  }

  async start(): Promise<LiveManifest> {
    try {
      await this.connect();
      await this.seed();
      this.adopt(await this.readLive());
    } catch (error) {
      // Nothing of a replica that did not start stays open.
      await this.close();
      throw error;
    }
    this.stale = false;
    this.listen();
    await this.listener?.started;
    this.poll = setInterval(() => void this.refresh(), this.options.pollMs ?? 5000);
    this.poll.unref();
    return this.current;
  }

  /** Brings the schema up to date, waiting for a database that is not reachable yet. */
  private async connect(): Promise<void> {
    const timeoutMs = this.options.startTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    const where = redactUrl(this.options.url);
    let loggedAt = -Infinity;
    for (;;) {
      try {
        await migrate(this.pool);
        return;
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        if (Date.now() >= deadline) {
          throw new ControlPlaneUnavailableError(
            `the control-plane database ${where} is unreachable (${reasonOf(error)}); gave up after ${Math.round(timeoutMs / 1000)} s`,
          );
        }
        // Tried every second, said every five.
        if (Date.now() - loggedAt >= 5000) {
          loggedAt = Date.now();
          this.log.warn(
            `site: the control-plane database ${where} is unreachable (${reasonOf(error)}); trying again for up to ${Math.ceil((deadline - Date.now()) / 1000)} s`,
          );
        }
        await sleep(1000);
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poll);
    await this.listener?.close();
    if (this.ownPool) await this.pool.end();
  }

  reachable(): boolean {
    return this.isReachable;
  }

  peek(): LiveManifest | undefined {
    return this.stale ? undefined : this.current;
  }

  get(): Promise<LiveManifest> {
    if (!this.stale) return Promise.resolve(this.current);
    return this.refresh();
  }

  async read(): Promise<LiveManifest> {
    // A read under way may have begun before the change the caller asks about: one after it.
    await this.reading;
    const live = await this.refresh();
    // The copy in memory may be older than a change that did go live: no answer is the true one.
    if (this.readError !== undefined) {
      throw new ControlPlaneUnavailableError(
        `the control-plane database is unreachable: ${reasonOf(this.readError)}; the live manifest cannot be read now, and nothing was changed`,
      );
    }
    return live;
  }

  publish(
    json: Record<string, unknown>,
    base: string,
    entries: HistoryDraft | readonly HistoryDraft[],
    { deadline }: PublishOptions = {},
  ): Promise<LiveManifest> {
    return this.commit(manifestText(json), base, ([] as HistoryDraft[]).concat(entries), deadline);
  }

  async history(remote?: string): Promise<HistoryEntry[]> {
    try {
      return await readHistory(this.pool, remote);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      throw new ControlPlaneUnavailableError(
        `the control-plane database is unreachable: ${reasonOf(error)}; the history cannot be read`,
      );
    }
  }

  /** A change made through this replica (see postgres-change.ts). */
  private commit(
    text: string,
    base: string,
    entries: readonly HistoryDraft[],
    deadline?: Date,
  ): Promise<LiveManifest> {
    return commitChange(this.pool, text, base, entries, deadline, (row, next) =>
      this.adopt(row, next),
    );
  }

  /**
   * An empty database starts from the manifest in DEPLOY_DIR: published as a change from "none",
   * so of several replicas starting together exactly one seeds it and the others find it live.
   */
  private async seed(): Promise<void> {
    if ((await this.readLive()).version !== null) return;
    // A deploy folder an earlier single server kept its history and tokens in: all of it moves.
    if (hasFileState(this.options.deployDir)) {
      await moveInFiles(this.pool, this.options.deployDir, this.log);
      return;
    }
    let text: string;
    try {
      text = await fs.readFile(this.seedFile, 'utf8');
    } catch {
      return;
    }
    let first: LiveManifest;
    try {
      first = live(text);
    } catch (error) {
      this.log.error(
        `site: ${this.seedFile} is not valid (${String(error)}); the control plane starts empty`,
      );
      return;
    }
    const at = new Date().toISOString();
    const entries = first.manifest.remotes.map((remote): HistoryDraft => ({
      at,
      by: 'site',
      credential: 'site',
      action: 'seed',
      remote: remote.name,
      from: null,
      to: liveVersion(remote),
      reason: `the manifest in ${this.seedFile} when the control plane was empty`,
    }));
    try {
      // The file's own bytes, so the version is the one a single server had from the same file.
      await this.commit(text, NO_VERSION, entries);
      this.log.info(
        `site: the control plane starts from ${this.seedFile} (manifest ${first.version})`,
      );
    } catch (error) {
      if (!(error instanceof StaleManifestError)) throw error;
    }
  }

  private async readLive(): Promise<LiveRow> {
    const { rows } = await this.pool.query<LiveRow>(
      `SELECT l.seq, l.version, v.body
         FROM live_manifest l LEFT JOIN manifest_versions v ON v.version = l.version`,
    );
    return rows[0] ?? { seq: '0', version: null, body: null };
  }

  /** Takes a read of the live pointer unless a newer one was taken meanwhile. */
  private adopt(row: LiveRow, parsed?: LiveManifest): void {
    const seq = Number(row.seq);
    if (seq <= this.seq) return;
    this.seq = seq;
    if (row.version === this.current.version) return;
    if (row.version === null || row.body === null) {
      this.current = EMPTY;
      return;
    }
    try {
      const first = this.current === EMPTY;
      this.current = parsed ?? live(row.body);
      // A change made through another replica (this one's own are logged where they are made).
      if (!parsed && !first) this.log.info(`site: manifest ${row.version} is live`);
    } catch (error) {
      this.log.error(
        `site: manifest ${row.version} in the control plane is not valid (${String(error)}); still serving version ${this.current.version}`,
      );
    }
  }

  /** Reads the live manifest again; after the first read, a failure keeps the last one. */
  private refresh(): Promise<LiveManifest> {
    this.reading ??= (async () => {
      // Cleared first: a notification while this read runs makes the next request read again.
      this.stale = false;
      try {
        this.adopt(await this.readLive());
        this.readError = undefined;
        this.up();
      } catch (error) {
        this.readError = error;
        this.down(error);
      }
      return this.current;
    })().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private up(): void {
    if (this.isReachable) return;
    this.isReachable = true;
    this.log.info(
      `site: the control-plane database is reachable again; serving manifest ${this.current.version}`,
    );
  }

  private down(error: unknown): void {
    if (!this.isReachable) return;
    this.isReachable = false;
    this.log.warn(
      `site: the control-plane database is unreachable (${reasonOf(error)}); still serving manifest ${this.current.version}`,
    );
  }

  /**
   * A connection of its own for LISTEN (@site/postgres), made again with a growing wait (0.25 s to
   * 2 s) when it is lost; each time it is back, the live pointer is read again.
   */
  private listen(): void {
    this.listener = listen({
      url: this.options.url,
      channel: CHANNEL,
      onNotify: (version) => {
        if (version === this.current.version) return;
        this.stale = true;
        // A read already under way may have started before this change: read again after it.
        void (this.reading ?? Promise.resolve()).then(() => this.refresh());
      },
      // Changes made while no notification could arrive.
      onListening: async () => {
        await this.refresh();
      },
      onLost: (error) => this.down(error),
    });
  }
}
