/**
 * The render processes (render/pools.ts): the shell's, and each group version's, started with the
 * strongest wall this machine allows (render/launcher.ts). A group's build comes from its own
 * origin only, never following a redirect. A new shell build gets new processes; a version that
 * leaves the live manifest has its processes retired.
 */
import type { RemoteDeployment } from '@site/contracts';
import fp from 'fastify-plugin';
import type { LiveManifest } from '../control-plane';
import { fetchRemoteFile, httpOrigin } from '../deploy/remote-files';
import { chooseWall, describeWall } from './launcher';
import { RenderPools } from './pools';

declare module 'fastify' {
  interface FastifyInstance {
    /** The render pools of the shell build in use. */
    renderPools(): RenderPools;
    /** A file of a remote's version folder, from the origin its entry was deployed at. */
    remoteFile(url: string, remote: RemoteDeployment): Promise<string>;
  }
}

const MAX_REMOTE_FILE = 20 * 1024 * 1024;

/** Every entry live now: each group's, and each canary's. */
const liveRemotes = (live: LiveManifest): RemoteDeployment[] => [
  ...live.manifest.remotes,
  ...live.canaries.map((c) => c.remote),
];

export default fp(
  async (app) => {
    const config = app.config;
    const log = app.log.child({ part: 'render' });
    async function remoteFile(url: string, remote: RemoteDeployment): Promise<string> {
      const origin = httpOrigin(remote.entry);
      const file = await fetchRemoteFile(
        url,
        new Set(origin ? [origin] : []),
        `${url.slice(new URL('./', remote.entry).href.length) || url} of ${remote.name}@${remote.version}`,
        { timeoutMs: config.FETCH_TIMEOUT_MS, maxBytes: MAX_REMOTE_FILE },
      );
      return file.text();
    }
    const wall = chooseWall(config.RENDER_USER);
    log.info(`site: render processes run ${describeWall(wall)}`);
    const make = () =>
      RenderPools.create({
        shellServerDir: app.shellBuild.serverDir,
        wall,
        shellProcesses: config.RENDER_WORKERS,
        groupProcesses: config.GROUP_RENDER_WORKERS,
        timeoutMs: config.RENDER_TIMEOUT_MS,
        maxPageBytes: config.RENDER_MAX_PAGE_BYTES,
        memoryMb: config.RENDER_MEMORY_MB,
        groupMemoryMb: config.GROUP_RENDER_MEMORY_MB,
        previewPools: config.PREVIEW_RENDER_POOLS,
        fetchBuild: remoteFile,
        log,
      });
    let pools = await make();
    app.onLive((live) => pools.setLive(liveRemotes(live)));
    // The processes run the build they started with: a new build gets new ones, and the old ones
    // finish what they hold.
    app.shellBuild.onChange(async () => {
      const previous = pools;
      pools = await make();
      pools.setLive(liveRemotes(await app.live()));
      setTimeout(() => void previous.close(), 30_000).unref();
    });
    app.decorate('renderPools', () => pools);
    app.decorate('remoteFile', remoteFile);
    app.addHook('onReady', () => pools.shell.warm());
    app.addHook('onClose', () => pools.close());
  },
  { name: 'render', dependencies: ['shell-build', 'control-plane'] },
);
