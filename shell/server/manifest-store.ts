import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { parseManifest, type DeploymentManifest } from '@site/shared/contracts';

export interface LiveManifest {
  /** Content hash: every page composed from this manifest is cached under it. */
  version: string;
  text: string;
  /** The manifest as JSON that is safe inside a page's script element. */
  embedded: string;
  manifest: DeploymentManifest;
  /** Every path a remote owns. */
  paths: Set<string>;
}

const EMPTY: LiveManifest = {
  version: 'none',
  text: '{"schemaVersion":1,"generatedAt":"","remotes":[]}',
  embedded: '{"schemaVersion":1,"generatedAt":"","remotes":[]}',
  manifest: { schemaVersion: 1, generatedAt: '', remotes: [] },
  paths: new Set(),
};

/**
 * The live deployment manifest, read from its file whenever the file changes, so a deploy takes
 * effect on the next request. It is parsed by the same parser the browser uses; a file that does
 * not parse is reported and the last good manifest stays live.
 */
export class ManifestStore {
  private current: LiveManifest = EMPTY;
  private mtimeMs = -1;
  private reading: Promise<LiveManifest> | undefined;

  constructor(
    readonly file: string,
    private readonly log: (message: string) => void = console.error,
  ) {}

  get(): Promise<LiveManifest> {
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async read(): Promise<LiveManifest> {
    let stat;
    try {
      stat = await fs.stat(this.file);
    } catch {
      if (this.mtimeMs !== -1) this.log(`site: the deployment manifest ${this.file} is gone`);
      this.mtimeMs = -1;
      this.current = EMPTY;
      return this.current;
    }
    if (stat.mtimeMs === this.mtimeMs) return this.current;
    const text = await fs.readFile(this.file, 'utf8');
    this.mtimeMs = stat.mtimeMs;
    try {
      this.current = live(text);
    } catch (error) {
      this.log(
        `site: the deployment manifest ${this.file} is not valid (${String(error)}); still serving version ${this.current.version}`,
      );
    }
    return this.current;
  }
}

/** JSON that is safe inside a script element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function live(text: string): LiveManifest {
  const manifest = parseManifest(JSON.parse(text));
  return {
    version: createHash('sha256').update(text).digest('hex').slice(0, 12),
    text,
    embedded: scriptJson(manifest),
    manifest,
    paths: new Set(manifest.remotes.flatMap((r) => r.routes.map((route) => route.path))),
  };
}
