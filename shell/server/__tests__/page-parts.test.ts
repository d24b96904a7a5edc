/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { parseManifest, type RemoteDeployment, type RemotePagesModule } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';
import type { ShellServerBuild } from '../render/protocol';

/**
 * The site server renders each page in two parts, the frame by the shell's processes and the page
 * by its group's, and puts the page into the frame's slot. The browser adopts that HTML as if the
 * whole page had been rendered at once, so the two must agree byte for byte: every `useId`, every
 * text separator. Checked here on every page of the real builds.
 */
const ROOT = path.join(__dirname, '..', '..', '..');
const SHELL_RENDER = path.join(ROOT, 'shell', 'dist', 'server', 'render.js');
const version = (folder: string): string =>
  (JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as { version: string })
    .version;

let shell: ShellServerBuild;
const builds = new Map<string, RemotePagesModule>();

beforeAll(() => {
  // The shell's and the groups' builds are current: global-setup.ts made any that were not.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shell's Node build is CommonJS
  shell = require(SHELL_RENDER) as ShellServerBuild;
});

/** A group's Node build, run here as a render process runs it (the shell's packages, nothing else). */
function loadRemote(remote: RemoteDeployment): Promise<RemotePagesModule> {
  const folder = SITE_REMOTES.find((r) => r.name === remote.name)!.folder;
  const file = path.join(ROOT, folder, 'dist', remote.version, 'server', 'pages.js');
  let loaded = builds.get(file);
  if (!loaded) {
    const module = { exports: {} as RemotePagesModule };
    const run = vm.runInThisContext(
      `(function (exports, require, module) {${readFileSync(file, 'utf8')}\n})`,
    ) as (exports: unknown, require: (name: string) => unknown, module: unknown) => void;
    run(module.exports, (name) => shell.provided[name], module);
    loaded = module.exports;
    builds.set(file, loaded);
  }
  return Promise.resolve(loaded);
}

const manifest = () =>
  parseManifest({
    schemaVersion: 1,
    generatedAt: '2026-01-01T00:00:00.000Z',
    remotes: SITE_REMOTES.map((r) => {
      const dir = path.join(ROOT, r.folder, 'dist', version(r.folder));
      const table = JSON.parse(readFileSync(path.join(dir, 'routes.json'), 'utf8')) as {
        prefixes: string[];
        routes: unknown[];
      };
      return {
        name: r.name,
        entry: `http://localhost:${r.port}/${version(r.folder)}/remoteEntry.js`,
        version: version(r.folder),
        prefixes: table.prefixes,
        routes: table.routes,
      };
    }),
  });

describe('a page composed from its frame and its part', () => {
  it('is, on every page of the site and the 404 page, exactly the page rendered whole', async () => {
    const live = manifest();
    const paths = [
      ...shell.shellPaths,
      '/404',
      ...live.remotes.flatMap((r) => r.routes.map((route) => route.path)),
    ];
    expect(paths.length).toBeGreaterThanOrEqual(28);
    for (const pagePath of paths) {
      const request = { manifest: live, path: pagePath, loadRemote };
      const whole = await shell.renderPage(request, 'all');
      const frame = await shell.renderPage(request, 'frame');
      const page = await shell.renderPage(request, 'page');
      expect(frame.html.split(shell.PAGE_SLOT)).toHaveLength(2);
      expect(page.html).not.toContain(shell.PAGE_SLOT);
      expect({
        path: pagePath,
        html: frame.html.replace(shell.PAGE_SLOT, () => page.html),
      }).toEqual({
        path: pagePath,
        html: whole.html,
      });
    }
  });

  it('is the same for the notice a group gets when its page cannot be rendered', async () => {
    const live = manifest();
    const pagePath = live.remotes[0]!.routes[0]!.path;
    const request = { manifest: live, path: pagePath, loadRemote };
    const reason = 'its render timed out';
    const whole = await shell.renderUnavailable(request, reason, 'all');
    const frame = await shell.renderPage(request, 'frame');
    const notice = await shell.renderUnavailable(request, reason, 'page');
    expect(notice.html).toContain('temporarily unavailable');
    expect(frame.html.replace(shell.PAGE_SLOT, () => notice.html)).toBe(whole.html);
  });
});
