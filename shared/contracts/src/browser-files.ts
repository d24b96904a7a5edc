/**
 * The files a group's pages load in the browser, as its version folder lists them: the entry, every
 * script and style sheet of its exposed module and of the shared modules it may fall back to (its
 * federation manifest, `mf-manifest.json`), and each page's own chunks (`page-assets.json`). The
 * deploy API pins each by SHA-384 in the manifest entry (`files`); the page loads each with that
 * `integrity`, so a file changed on the group's host after the deploy does not run.
 */

export { MAX_PINNED_FILES, PINNED_PATH, PINS_GLOBAL, SHA384_INTEGRITY } from './manifest';

interface AssetLists {
  js?: { sync?: unknown; async?: unknown };
  css?: { sync?: unknown; async?: unknown };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const assetFiles = (assets: AssetLists | undefined): string[] =>
  [assets?.js, assets?.css].flatMap((list) => [...strings(list?.sync), ...strings(list?.async)]);

/**
 * The paths a group's pages load, from its entry's file name and the two lists its build writes
 * beside it; each path once. A path outside the version folder is returned too, so the caller can
 * refuse it by name.
 */
export function browserFiles(
  entryFile: string,
  federation: unknown,
  pageAssets: unknown,
): string[] {
  const manifest = (federation ?? {}) as {
    exposes?: { assets?: AssetLists }[];
    shared?: { assets?: AssetLists }[];
  };
  const pages = ((pageAssets ?? {}) as { pages?: Record<string, unknown> }).pages ?? {};
  return [
    ...new Set([
      entryFile,
      ...[...(manifest.exposes ?? []), ...(manifest.shared ?? [])].flatMap((m) =>
        assetFiles(m.assets),
      ),
      ...Object.values(pages).flatMap(strings),
    ]),
  ].filter((file) => /\.(js|css)$/.test(file));
}

/** A remote's pins by the absolute URL each file is loaded from. */
export const pinsByUrl = (remote: {
  entry: string;
  files?: Record<string, string>;
}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(remote.files ?? {}).map(([file, pin]) => [
      new URL(file, remote.entry).href,
      pin,
    ]),
  );

/**
 * What the site server answers at `GET /_integrity`: each live group version whose files a browser
 * could not load while the site found them unlike their pins, with the files that differ.
 */
export interface IntegrityAnswer {
  failures: { group: string; version: string; reports: number; files: string[]; at: string }[];
}
