/**
 * What a canary is judged on, counted where no visitor can forge it: the page views the site
 * serves of each version of a group that has a canary (canary and stable), the views the site
 * could not render, and the views whose browser reported an error with the token the site signed
 * into that view (once per token). Each replica keeps its counts of the last few seconds here and
 * adds them to the control plane's store (files for one server, PostgreSQL for replicas), where
 * every replica's are summed: a replica that dies loses its last seconds, nothing else.
 */
import type { CanaryDecision } from '@site/contracts/deploy-api';
import type { Counts } from '@site/contracts/canary-judgment';

/** One second of a group version's counts. */
export interface CountRow {
  group: string;
  version: string;
  /** Seconds since the epoch. */
  second: number;
  views: number;
  errors: number;
}

/** A browser's report with a valid token: counted if its nonce was never counted before. */
export interface TokenReport {
  group: string;
  version: string;
  second: number;
  nonce: string;
  /** When the token expires (ms since the epoch): its nonce is kept until then. */
  expiresAt: number;
}

export type StoredDecision = CanaryDecision & { group: string; version: string };

/** Where the replicas' counts are summed and the judging replica is chosen. */
export interface CanaryCountStore {
  /** Adds counts; each report counts only if its nonce is new (across every replica). */
  add(rows: readonly CountRow[], reports: readonly TokenReport[]): Promise<void>;
  /** A group version's counts from `fromSecond` on. */
  sum(group: string, version: string, fromSecond: number): Promise<Counts>;
  /** Takes or renews the judging lease for `ms`; false while another replica holds it. */
  lease(holder: string, ms: number): Promise<boolean>;
  /** Records the last decision about a group's canary. */
  decide(decision: StoredDecision): Promise<void>;
  decisions(): Promise<StoredDecision[]>;
  /** Drops counts older than `beforeSecond` and nonces of expired tokens. */
  prune(beforeSecond: number): Promise<void>;
  close(): Promise<void>;
}

const rowKey = (group: string, version: string, second: number) =>
  `${group}\n${version}\n${second}`;

/**
 * This replica's counts since its last flush. A token's nonce is remembered here until it expires
 * (so a replay to this replica costs nothing), and the store makes sure of it across replicas.
 * Only reports with a valid token reach it: no flood of forged reports can fill it.
 */
export class CanaryCounter {
  private rows = new Map<string, CountRow>();
  private reports: TokenReport[] = [];
  private readonly seen = new Map<string, number>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly store: CanaryCountStore,
    private readonly now: () => number = Date.now,
    /** Nonces remembered at most (the oldest go first; the store still refuses their replays). */
    private readonly maxSeen = 200_000,
  ) {}

  private row(group: string, version: string): CountRow {
    const second = Math.floor(this.now() / 1000);
    const key = rowKey(group, version, second);
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { group, version, second, views: 0, errors: 0 }));
    return row;
  }

  /** A page of a group version served to a visitor; `failed` when the site could not render it. */
  view(group: string, version: string, failed: boolean): void {
    const row = this.row(group, version);
    row.views += 1;
    if (failed) row.errors += 1;
  }

  /** A report with a valid token; false when that token was counted before here. */
  report(group: string, version: string, nonce: string, expiresAt: number): boolean {
    const now = this.now();
    if ((this.seen.get(nonce) ?? 0) > now) return false;
    this.seen.set(nonce, expiresAt);
    if (this.seen.size > this.maxSeen) {
      for (const [old, until] of this.seen) {
        if (this.seen.size <= this.maxSeen && until > now) break;
        this.seen.delete(old);
      }
    }
    this.reports.push({ group, version, second: Math.floor(now / 1000), nonce, expiresAt });
    return true;
  }

  /** Adds what was counted since the last flush to the store; kept for the next one on failure. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      const rows = [...this.rows.values()];
      const reports = this.reports;
      this.rows = new Map();
      this.reports = [];
      if (rows.length === 0 && reports.length === 0) return;
      try {
        await this.store.add(rows, reports);
      } catch (error) {
        for (const row of rows) {
          const kept = this.rows.get(rowKey(row.group, row.version, row.second));
          if (kept) {
            kept.views += row.views;
            kept.errors += row.errors;
          } else this.rows.set(rowKey(row.group, row.version, row.second), row);
        }
        this.reports.unshift(...reports);
        throw error;
      }
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }
}
