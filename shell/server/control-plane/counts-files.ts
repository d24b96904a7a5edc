import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Counts } from '@site/contracts/canary-judgment';
import type { CanaryCountStore, CountRow, StoredDecision, TokenReport } from '../canary/counts';

interface Saved {
  counts: CountRow[];
  reports: [string, number][];
  decisions: StoredDecision[];
}

/**
 * The canary counts of a single site server: `<deployDir>/canary-counts.json`, written whole (to a
 * temporary file, then renamed) at each flush, read back at start. One server judges alone, so the
 * lease is always its own.
 */
export class FileCountStore implements CanaryCountStore {
  readonly file: string;
  private counts = new Map<string, CountRow>();
  private nonces = new Map<string, number>();
  private decided = new Map<string, StoredDecision>();
  private loaded: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    deployDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(deployDir, 'canary-counts.json');
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      let saved: Saved;
      try {
        saved = JSON.parse(await fs.readFile(this.file, 'utf8')) as Saved;
      } catch {
        return;
      }
      for (const row of saved.counts ?? []) this.counts.set(key(row), row);
      this.nonces = new Map(saved.reports ?? []);
      for (const d of saved.decisions ?? []) this.decided.set(d.group, d);
    })();
    return this.loaded;
  }

  private save(): Promise<void> {
    const text = JSON.stringify({
      counts: [...this.counts.values()],
      reports: [...this.nonces],
      decisions: [...this.decided.values()],
    } satisfies Saved);
    this.writing = this.writing.then(async () => {
      const tmp = `${this.file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, text);
      await fs.rename(tmp, this.file);
    });
    return this.writing;
  }

  async add(rows: readonly CountRow[], reports: readonly TokenReport[]): Promise<void> {
    await this.load();
    for (const row of rows) {
      const kept = this.counts.get(key(row));
      if (kept) {
        kept.views += row.views;
        kept.errors += row.errors;
      } else this.counts.set(key(row), { ...row });
    }
    for (const report of reports) {
      if (this.nonces.has(report.nonce)) continue;
      this.nonces.set(report.nonce, report.expiresAt);
      const row = { ...report, views: 0, errors: 0 };
      const kept = this.counts.get(key(row)) ?? row;
      kept.errors += 1;
      this.counts.set(key(row), kept);
    }
    await this.save();
  }

  async sum(group: string, version: string, fromSecond: number): Promise<Counts> {
    await this.load();
    const total = { views: 0, errors: 0 };
    for (const row of this.counts.values()) {
      if (row.group !== group || row.version !== version || row.second < fromSecond) continue;
      total.views += row.views;
      total.errors += row.errors;
    }
    return total;
  }

  lease(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async decide(decision: StoredDecision): Promise<void> {
    await this.load();
    this.decided.set(decision.group, decision);
    await this.save();
  }

  async decisions(): Promise<StoredDecision[]> {
    await this.load();
    return [...this.decided.values()];
  }

  async prune(beforeSecond: number): Promise<void> {
    await this.load();
    const now = this.now();
    for (const [k, row] of this.counts) if (row.second < beforeSecond) this.counts.delete(k);
    for (const [nonce, until] of this.nonces) if (until <= now) this.nonces.delete(nonce);
  }

  async close(): Promise<void> {
    await this.writing.catch(() => undefined);
  }
}

const key = (row: { group: string; version: string; second: number }) =>
  `${row.group}\n${row.version}\n${row.second}`;
