/**
 * Every page group's static host in one process, as the local run (`npm start`, the cluster run)
 * serves them: each group's `dist/` on its own origin (its port in the site table), one Fastify
 * server per port in this one process, rather than one Node.js process per group (about 110 MB
 * each). The table is followed while it runs: a group that `npm run new-group` adds is served
 * within a second, a group removed stops being served, a port changed moves.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';
import { createRemoteServer, type RemoteHost } from '@site/serving';

/** A group as the host needs it: where its builds are and which port is its origin. */
export interface HostedGroup {
  name: string;
  folder: string;
  port: number;
}

const SITE_FILE = path.join('shared', 'contracts', 'site.json');

/** The groups of the site table at `root`, read afresh; what does not parse is an error. */
export function readGroups(root: string): HostedGroup[] {
  const file = path.join(root, SITE_FILE);
  const table = JSON.parse(readFileSync(file, 'utf8')) as { remotes?: unknown };
  if (!Array.isArray(table.remotes)) throw new Error(`${file} lists no remotes`);
  return table.remotes.map((entry: unknown, i) => {
    const { name, folder, port } = (entry ?? {}) as Record<string, unknown>;
    if (
      typeof name !== 'string' ||
      typeof folder !== 'string' ||
      !/^mfe-[a-z0-9-]+$/.test(folder) ||
      typeof port !== 'number' ||
      !Number.isInteger(port) ||
      port < 1 ||
      port > 65535
    ) {
      throw new Error(`${file}: remote ${i + 1} needs a name, an mfe-* folder and a port`);
    }
    return { name, folder, port };
  });
}

export interface GroupHostsOptions {
  /** The checkout whose site table and `mfe-*` builds are served. */
  root: string;
  /** Where each line about a group's host goes. */
  log?: (line: string) => void;
  /** The address to listen on; every interface when not given. */
  host?: string;
}

export class GroupHosts {
  private readonly serving = new Map<string, { group: HostedGroup; host: RemoteHost }>();
  /** The last problem told per group (or for the table), so a retry does not repeat it. */
  private readonly told = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  /** After the first pass, a group that appears is one added while this runs. */
  private started = false;
  private readonly siteFile: string;
  private readonly log: (line: string) => void;

  constructor(private readonly options: GroupHostsOptions) {
    this.siteFile = path.join(options.root, SITE_FILE);
    this.log = options.log ?? ((line) => console.log(line));
  }

  /** The groups served now, by name. */
  groups(): HostedGroup[] {
    return [...this.serving.values()].map((s) => s.group);
  }

  /** Serves what the table lists now; one change at a time. */
  sync(): Promise<void> {
    // A pass that fails is told and the next one tries again: the queue never stays rejected.
    this.queue = this.queue
      .then(() => this.apply())
      .catch((error: unknown) =>
        this.tell('sync', `the groups could not be served as listed: ${String(error)}`),
      );
    return this.queue;
  }

  /**
   * Follows the table: checked every `intervalMs` (a stat, which sees the rename new-group writes
   * it with), and every few seconds a group whose port was taken is tried again.
   */
  follow(intervalMs = 1000): void {
    watchFile(this.siteFile, { interval: intervalMs, persistent: false }, () => void this.sync());
    this.timer = setInterval(() => void this.sync(), 5000);
    this.timer.unref();
  }

  async close(): Promise<void> {
    unwatchFile(this.siteFile);
    clearInterval(this.timer);
    await this.queue;
    await Promise.all([...this.serving.values()].map(({ host }) => host.close()));
    this.serving.clear();
  }

  private tell(key: string, problem: string): void {
    if (this.told.get(key) === problem) return;
    this.told.set(key, problem);
    this.log(problem);
  }

  private async apply(): Promise<void> {
    let wanted: HostedGroup[];
    try {
      wanted = readGroups(this.options.root);
      this.told.delete('table');
    } catch (error) {
      // Half written, or a hand edit in progress: keep serving what is served.
      this.tell(
        'table',
        `the site table cannot be read (${(error as Error).message}): serving as before`,
      );
      return;
    }
    for (const [name, { group, host }] of this.serving) {
      const now = wanted.find((g) => g.name === name);
      if (now && now.port === group.port && now.folder === group.folder) continue;
      await host.close();
      this.serving.delete(name);
      if (!now) this.log(`remote ${name}: no longer in the site table, not served`);
    }
    for (const group of wanted) {
      if (this.serving.has(group.name)) continue;
      const dist = path.join(this.options.root, group.folder, 'dist');
      const host = await createRemoteServer(dist);
      try {
        await host.listen(group.port, this.options.host);
      } catch (error) {
        await host.close().catch(() => undefined);
        this.tell(
          group.name,
          `remote ${group.name}: port ${group.port} could not be listened on (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); trying again`,
        );
        continue;
      }
      this.serving.set(group.name, { group, host });
      this.told.delete(group.name);
      this.log(
        `remote ${group.name}: http://localhost:${group.port}/ (${group.folder}/dist)${this.started ? ', new in the site table' : ''}`,
      );
    }
    this.started = true;
  }
}
