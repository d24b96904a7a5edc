import semver from 'semver';

/** Versions in release order: a pre-release sorts below its release (1.0.0-rc.1 < 1.0.0). */
export function sortVersions(versions: readonly string[]): string[] {
  return versions.filter((v) => semver.valid(v) !== null).sort(semver.compare);
}

/** The highest release or pre-release among version folder names; undefined when there is none. */
export function newestVersion(versions: readonly string[]): string | undefined {
  return sortVersions(versions).at(-1);
}
