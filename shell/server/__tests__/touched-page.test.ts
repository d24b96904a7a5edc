/**
 * @jest-environment node
 */
import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';
import { MAX_RENDERED, touchedPage } from '../deploy/touched-page';

/**
 * The page a preview link opens, from the live manifest and the checked version: what the version
 * adds, then what it describes anew, then what it renders otherwise, in the table's order.
 */

const route = (path: string, title = path) => ({
  path,
  title,
  description: `The page at ${path}, described at the length a route table asks for.`,
  group: 'Data',
  navLabel: title,
});

const remote = (version: string, routes: RemoteDeployment['routes']): RemoteDeployment => ({
  name: 'data',
  entry: `http://localhost:3002/${version}/remoteEntry.js`,
  version,
  prefixes: ['/data'],
  routes,
});

const manifest = (...remotes: RemoteDeployment[]): DeploymentManifest => ({
  schemaVersion: 1,
  generatedAt: '2026-11-29T00:00:00.000Z',
  remotes,
});

const LIVE = remote('1.0.0', [route('/data'), route('/data/a'), route('/data/b')]);

/** Renders each page as its version's text says, recording which renders were asked for. */
function renders(changed: Record<string, string> = {}) {
  const asked: string[] = [];
  const render = async (m: DeploymentManifest, path: string) => {
    const version = m.remotes[0]!.version;
    asked.push(`${version} ${path}`);
    return version === '1.0.0' ? `old ${path}` : (changed[path] ?? `old ${path}`);
  };
  return { asked, render };
}

it('opens the first page the version adds, without rendering any', async () => {
  const next = remote('1.1.0', [
    route('/data'),
    route('/data/new'),
    route('/data/a'),
    route('/data/z'),
  ]);
  const { asked, render } = renders({ '/data': 'new overview' });
  expect(await touchedPage(manifest(LIVE), next, render)).toEqual({
    path: '/data/new',
    why: 'added',
  });
  expect(asked).toEqual([]);
});

it('opens the first page whose title, description or menu label changed', async () => {
  const next = remote('1.1.0', [route('/data'), route('/data/a'), route('/data/b', 'B, renamed')]);
  expect(await touchedPage(manifest(LIVE), next, renders().render)).toEqual({
    path: '/data/b',
    why: 'described',
  });
});

it('opens the first page rendered otherwise, comparing each page with the live version’s render', async () => {
  const next = remote('1.1.0', LIVE.routes);
  const { asked, render } = renders({ '/data/a': 'new text on a', '/data/b': 'new text on b' });
  expect(await touchedPage(manifest(LIVE), next, render)).toEqual({
    path: '/data/a',
    why: 'rendered',
  });
  expect(asked.sort()).toEqual(['1.0.0 /data', '1.0.0 /data/a', '1.1.0 /data', '1.1.0 /data/a']);
});

it('opens the first page when nothing on the server changed, or the group is new', async () => {
  const same = remote('1.1.0', LIVE.routes);
  expect(await touchedPage(manifest(LIVE), same, renders().render)).toEqual({
    path: '/data',
    why: 'first',
  });
  expect(await touchedPage(manifest(), same, renders().render)).toEqual({
    path: '/data',
    why: 'first',
  });
});

it('never opens a page it could not render, and compares at most a stated number of pages', async () => {
  const many = Array.from({ length: MAX_RENDERED + 20 }, (_, i) => route(`/data/p${i}`));
  const live = remote('1.0.0', many);
  const next = remote('1.1.0', many);
  const failing = async () => null;
  expect(await touchedPage(manifest(live), next, failing)).toEqual({
    path: '/data/p0',
    why: 'first',
  });
  const { asked, render } = renders({ [`/data/p${MAX_RENDERED + 5}`]: 'changed past the limit' });
  expect(await touchedPage(manifest(live), next, render)).toEqual({
    path: '/data/p0',
    why: 'first',
  });
  expect(asked).toHaveLength(MAX_RENDERED * 2);
});
