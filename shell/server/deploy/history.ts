import { promises as fs } from 'node:fs';
import type { HistoryEntry, LiveVersion } from '@site/contracts/deploy-api';

export type { HistoryEntry, LiveVersion };

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
  files?: Record<string, string>;
}): LiveVersion => ({
  version: remote.version,
  entry: remote.entry,
  ...(remote.serverIntegrity ? { serverIntegrity: remote.serverIntegrity } : {}),
  // A rollback goes back to exactly these files (file-pins.ts).
  ...(remote.files ? { files: remote.files } : {}),
});
