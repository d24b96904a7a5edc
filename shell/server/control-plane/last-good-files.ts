import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LastGoodStore, PageOf, StoredPage } from '../pages/last-good';

/**
 * The last good pages of a single site server: one file per page in `<deployDir>/last-good/`, named
 * by a hash of its group, version and path, holding a line of JSON that says which page it is and
 * then the page's gzip bytes; when it was last known good is the file's modification time. A file
 * is written whole to a temporary name and renamed, so a reader never sees half of one. The
 * folder is read once (the pages kept, and when each was good) and then kept in step by this
 * server alone.
 */
export class FileLastGoodStore implements LastGoodStore {
  readonly dir: string;
  private index: Promise<Map<string, number>> | undefined;

  constructor(deployDir: string) {
    this.dir = path.join(deployDir, 'last-good');
  }

  private fileOf(page: PageOf): string {
    const name = createHash('sha256')
      .update(`${page.group}\n${page.version}\n${page.path}`)
      .digest('hex')
      .slice(0, 40);
    return path.join(this.dir, `${name}.page`);
  }

  /** Every file kept, and when its page was last known good. */
  private kept(): Promise<Map<string, number>> {
    this.index ??= (async () => {
      const kept = new Map<string, number>();
      let names: string[];
      try {
        names = await fs.readdir(this.dir);
      } catch {
        return kept;
      }
      for (const name of names.filter((n) => n.endsWith('.page'))) {
        const file = path.join(this.dir, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat) kept.set(file, stat.mtimeMs);
      }
      return kept;
    })();
    return this.index;
  }

  async get(page: PageOf): Promise<StoredPage | undefined> {
    let bytes: Buffer;
    let goodAt: number;
    try {
      const file = this.fileOf(page);
      [bytes, goodAt] = await Promise.all([
        fs.readFile(file),
        fs.stat(file).then((s) => s.mtimeMs),
      ]);
    } catch {
      return undefined;
    }
    const end = bytes.indexOf(0x0a);
    if (end === -1) return undefined;
    const head = JSON.parse(bytes.subarray(0, end).toString('utf8')) as PageOf;
    // A hash shared by two pages: not this one.
    if (head.group !== page.group || head.version !== page.version || head.path !== page.path) {
      return undefined;
    }
    return { ...page, gzip: bytes.subarray(end + 1), goodAt };
  }

  async put(
    page: StoredPage,
    { maxPages, staleBefore }: { maxPages: number; staleBefore: number },
  ): Promise<void> {
    const kept = await this.kept();
    await fs.mkdir(this.dir, { recursive: true });
    const file = this.fileOf(page);
    const tmp = `${file}.${process.pid}.tmp`;
    const head = JSON.stringify({ group: page.group, version: page.version, path: page.path });
    await fs.writeFile(tmp, Buffer.concat([Buffer.from(`${head}\n`), page.gzip]));
    const at = new Date(page.goodAt);
    await fs.utimes(tmp, at, at);
    await fs.rename(tmp, file);
    kept.delete(file);
    kept.set(file, page.goodAt);
    // Sorted only when over the bound: a server composing its pages writes one after another.
    if (kept.size <= maxPages) return;
    const byAge = [...kept].sort((a, b) => b[1] - a[1]);
    const drop = byAge.filter(([, goodAt], i) => i >= maxPages || goodAt < staleBefore);
    for (const [old] of drop) {
      kept.delete(old);
      await fs.rm(old, { force: true });
    }
  }

  async touch(page: PageOf, at: number): Promise<void> {
    const kept = await this.kept();
    const file = this.fileOf(page);
    if (!kept.has(file)) return;
    const when = new Date(at);
    await fs.utimes(file, when, when).then(
      () => kept.set(file, at),
      () => kept.delete(file),
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
