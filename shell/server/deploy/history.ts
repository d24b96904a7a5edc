import { promises as fs } from 'node:fs';

/** A version of a group as it was live: where its files are and the pin of its Node build. */
export interface LiveVersion {
  version: string;
  entry: string;
  /** Absent in entries written before versions were pinned. */
  serverIntegrity?: string;
}

/** One change of the live manifest: who, when, which remote, from which version to which, and why. */
export interface HistoryEntry {
  at: string;
  by: string;
  /**
   * `seed`: the manifest a shared control plane started from, one entry per remote in it;
   * `canary`: a version made live for a share of visits (a `rollback` ends it, a deploy promotes).
   */
  action: 'deploy' | 'rollback' | 'seed' | 'canary';
  remote: string;
  from: LiveVersion | null;
  to: LiveVersion;
  reason: string;
  /** The manifest version this change produced. */
  manifestVersion: string;
  /** The release this change was part of, when several groups went live together. */
  release?: string;
  /**
   * The credential that made the change: `operator` (DEPLOY_TOKEN), `group:<group>#<token id>`
   * (a group's deploy token), or `site` (the site itself: a seed, a canary's automatic rollback).
   * Never the token. Absent in entries recorded before credentials were told apart.
   */
  credential?: string;
}

/**
 * The manifest's history: one JSON line per change, appended and flushed before the change is
 * answered as done, so the record survives a crash. Kept beside the manifest.
 */
export class History {
  constructor(readonly file: string) {}

  /** Appends the entries of one change (several for a release) in one write. */
  async append(entries: HistoryEntry | readonly HistoryEntry[]): Promise<void> {
    const lines = ([] as HistoryEntry[]).concat(entries).map((e) => `${JSON.stringify(e)}\n`);
    const handle = await fs.open(this.file, 'a');
    try {
      await handle.appendFile(lines.join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async read(remote?: string): Promise<HistoryEntry[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .flatMap((line): HistoryEntry[] => {
        try {
          return [JSON.parse(line) as HistoryEntry];
        } catch {
          // A line cut short by a crash while it was written.
          return [];
        }
      })
      .filter((e) => remote === undefined || e.remote === remote);
  }
}

/**
 * The version a rollback goes back to: `to` when given (it must have been live before), else the
 * version that was live before the current one.
 */
export function rollbackTarget(
  history: readonly HistoryEntry[],
  current: string | undefined,
  to?: string,
): LiveVersion | undefined {
  const seen = history.flatMap((e) => [e.to, ...(e.from ? [e.from] : [])]);
  if (to !== undefined) return [...seen].reverse().find((v) => v.version === to);
  const last = [...history].reverse().find((e) => e.to.version === current);
  return last?.from && last.from.version !== current ? last.from : undefined;
}

export const liveVersion = (remote: {
  version: string;
  entry: string;
  serverIntegrity?: string;
}): LiveVersion => ({
  version: remote.version,
  entry: remote.entry,
  ...(remote.serverIntegrity ? { serverIntegrity: remote.serverIntegrity } : {}),
});
