/**
 * What a page answer needs and is the same for every answer of one page in one manifest (its
 * policy headers, its cache key): worked out once per manifest and path, not on every answer. A
 * manifest no longer in use takes its entries with it; paths over PATH_MAX characters (no page of
 * the site is that long) are worked out each time, and past MAX_PER_MANIFEST paths the manifest's
 * entries start again, so no stream of made-up paths holds memory.
 */
import type { LiveManifest } from '../control-plane';

const MAX_PER_MANIFEST = 4096;
const PATH_MAX = 1024;

export class ByPage<T> {
  private readonly kept = new WeakMap<LiveManifest, Map<string, T>>();

  constructor(private readonly make: (live: LiveManifest, pagePath: string) => T) {}

  get(live: LiveManifest, pagePath: string): T {
    let byPath = this.kept.get(live);
    if (!byPath) {
      byPath = new Map();
      this.kept.set(live, byPath);
    }
    const known = byPath.get(pagePath);
    if (known !== undefined) return known;
    const made = this.make(live, pagePath);
    if (byPath.size >= MAX_PER_MANIFEST) byPath.clear();
    if (pagePath.length <= PATH_MAX) byPath.set(pagePath, made);
    return made;
  }
}
