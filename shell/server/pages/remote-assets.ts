/**
 * The scripts a remote's page loads in the browser, to preload with the page: the remote's entry,
 * the files of its exposed module (its federation manifest) and the page's own chunks (the
 * `page-assets.json` its build writes). Read here, on the trusted side, from the version's own
 * origin; version folders never change, so a version's lists are read once. Best effort: without
 * them a page still works, the browser loads the files when the page starts.
 */
import type { RemoteDeployment } from '@site/contracts';
import { LRUCache } from 'lru-cache';

interface Lists {
  /** The remote's entry and the files of its exposed module, loaded by every page of the remote. */
  common: string[];
  /** Each page's own chunk files. */
  pages: Record<string, string[]>;
}

interface FederationManifest {
  exposes?: { assets?: { js?: { sync?: unknown } } }[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export class RemoteAssets {
  private readonly lists = new LRUCache<string, Promise<Lists>>({ max: 256 });

  constructor(
    private readonly fetchJson: (url: string, remote: RemoteDeployment) => Promise<unknown>,
  ) {}

  private read(remote: RemoteDeployment): Promise<Lists> {
    const base = new URL('./', remote.entry).href;
    let lists = this.lists.get(base);
    if (!lists) {
      // Only files of the version's own folder: a list cannot point a preload elsewhere.
      const absolute = (files: string[]) =>
        files.map((f) => new URL(f, base).href).filter((url) => url.startsWith(base));
      lists = Promise.all([
        this.fetchJson(new URL('mf-manifest.json', base).href, remote),
        this.fetchJson(new URL('page-assets.json', base).href, remote),
      ]).then(([federation, assets]) => {
        const exposed = ((federation as FederationManifest | null)?.exposes ?? []).flatMap((e) =>
          strings(e.assets?.js?.sync),
        );
        const pages = (assets as { pages?: Record<string, unknown> } | null)?.pages ?? {};
        return {
          common: [remote.entry, ...absolute(exposed)],
          pages: Object.fromEntries(
            Object.entries(pages).map(([p, files]) => [
              p,
              absolute(strings(files).filter((f) => f.endsWith('.js'))),
            ]),
          ),
        };
      });
      // A failure is forgotten, so a later page tries again.
      lists.catch(() => this.lists.delete(base));
      this.lists.set(base, lists);
    }
    return lists;
  }

  async preloads(remote: RemoteDeployment, path: string): Promise<string[]> {
    try {
      const lists = await this.read(remote);
      return [...lists.common, ...(lists.pages[path] ?? [])];
    } catch {
      return [remote.entry];
    }
  }
}
