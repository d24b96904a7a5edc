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

const same = (a: LiveVersion | null, b: LiveVersion | null): boolean =>
  a !== null && b !== null && a.version === b.version && a.entry === b.entry;

/**
 * The changes of one group that moved what every visitor gets: not a canary's start or steps, and
 * not its end, a rollback from the running canary to the stable version (by its team or by the
 * site), after which every visitor has what they had before it began. A promotion is a deploy.
 * Read from the history alone, so every replica and every store answers the same.
 */
export function everyoneChanges(history: readonly HistoryEntry[]): HistoryEntry[] {
  let canary: LiveVersion | null = null;
  return history.filter((e) => {
    if (e.action === 'canary') {
      canary = e.to;
      return false;
    }
    const ended = e.action === 'rollback' && same(e.from, canary);
    canary = null;
    // A deploy of the version already live moved nothing either.
    return !ended && !same(e.from, e.to);
  });
}

/**
 * The version a rollback goes back to: `to` when given (it must have been live before), else the
 * version that was last live for everyone before the one live now. A canary that was rolled back
 * never was: rolling back after it goes to the version before the stable one, not to it.
 */
export function rollbackTarget(
  history: readonly HistoryEntry[],
  current: string | undefined,
  to?: string,
): LiveVersion | undefined {
  if (to !== undefined) {
    const seen = history.flatMap((e) => [e.to, ...(e.from ? [e.from] : [])]);
    return [...seen].reverse().find((v) => v.version === to);
  }
  const last = everyoneChanges(history)
    .reverse()
    .find((e) => e.to.version === current);
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
