/**
 * Deployment manifests for tests (of the manifest's parser, of the deploy API): routes that pass
 * the route-table contract and remote entries made of them, built afresh on each call so that a
 * test can change its own copy.
 */

/** A route at `path` that passes the contract; its title names the path. */
export function testRoute(path: string) {
  return {
    path,
    title: `Title of ${path}`,
    description: 'A description that is long enough to pass the fifty character minimum.',
    group: 'Group',
    navLabel: 'Label',
  };
}

/**
 * A remote's entry at version 1.0.0, its entry file under `origin`, `prefix` its one path prefix,
 * with a route for each of `paths`.
 */
export function testRemote(name: string, origin: string, prefix: string, paths: string[]) {
  return {
    name,
    entry: `${origin}/1.0.0/remoteEntry.js`,
    version: '1.0.0',
    prefixes: [prefix],
    routes: paths.map((path) => testRoute(path)),
  };
}

/** A manifest of `remotes`, schema version 1, generated at the start of 2026. */
export function testManifest<Remote>(remotes: Remote[]) {
  return { schemaVersion: 1, generatedAt: '2026-01-01T00:00:00.000Z', remotes };
}
