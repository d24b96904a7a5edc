/**
 * Releases: the deploy API (`/_deploy/*`, deploy/api.ts) through which teams change the live
 * manifest, the checks every change passes (deploy/deployer.ts), and the watch that ends a canary
 * whose errors pass its threshold (canary.ts). Without a deploy token the API answers 404 and says
 * why; the watch runs either way (a canary can only come from a deploy, but a manifest is read as
 * it is).
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { CANARY_DEFAULTS, CanaryWatch } from '../canary';
import { deployApi } from '../deploy/api';
import { Deployer } from '../deploy/deployer';
import { reservedPaths } from '../deploy/reserved';

export interface DeploySettings {
  /** The operator's token; the API is off without it. */
  token?: string | undefined;
  /** Origins entries may point at. */
  allowedOrigins: readonly string[];
  fetchTimeoutMs: number;
  /** A canary is rolled back by itself at this many errors within the window (seconds). */
  canary: { errorThreshold: number; windowSeconds: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    deployer: Deployer;
  }
}

export default fp<DeploySettings>(
  async (app, settings) => {
    const log = app.log.child({ part: 'deploy' });
    const { shell, publicDir } = app.shellBuild;
    const store = app.controlPlane;
    const deployer = new Deployer({
      allowedOrigins: settings.allowedOrigins,
      current: () => store.get(),
      history: (remote) => store.history(remote),
      publish: async (json, base, entry) => {
        const next = await store.publish(json, base, entry);
        log.info(`site: manifest ${next.version} is live`);
        return next;
      },
      providedVersions: shell.providedVersions,
      shellPaths: shell.shellPaths,
      reservedPaths: () => reservedPaths(publicDir),
      fetchTimeoutMs: Math.max(settings.fetchTimeoutMs, 5000),
      // A version's pages are rendered by that version's own processes, as its visitors' will be.
      async renderCheck(manifest, pagePath) {
        const owner = manifest.remotes.find((r) =>
          r.routes.some((route) => route.path === pagePath),
        );
        if (!owner) return `no group owns ${pagePath}`;
        try {
          const reply = await app
            .renderPools()
            .group(owner)
            .render({
              part: 'page',
              manifest: { ...manifest, remotes: [owner] },
              path: pagePath,
            });
          return reply.failure;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      },
    });
    app.decorate('deployer', deployer);

    // Every replica watches the canaries' errors it sees; the first past the threshold rolls back.
    const watch = new CanaryWatch({
      current: () => store.get(),
      errors: (group, version, windowMs) =>
        app.metrics.beaconErrors(group, version, windowMs) +
        app.metrics.renderFailuresIn(group, version, windowMs),
      async rollBack(group, version, reason) {
        const done = await deployer.rollBackCanary(group, version, reason);
        if (done) app.metrics.deploy('rollback', 'ok');
      },
      errorThreshold: settings.canary.errorThreshold ?? CANARY_DEFAULTS.errorThreshold,
      windowSeconds: settings.canary.windowSeconds ?? CANARY_DEFAULTS.windowSeconds,
      log,
    });
    app.addHook('onReady', async () => watch.start());
    app.addHook('onClose', async () => watch.stop());

    if (settings.token) {
      await app.register(deployApi, {
        prefix: '/_deploy',
        token: settings.token,
        tokens: store.tokens,
        deployer,
        preview: app.previews,
        current: () => store.get(),
        log,
      });
      return;
    }
    const off = (_: unknown, reply: FastifyReply) =>
      reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The deploy API is off: it needs DEPLOY_TOKEN.\n');
    app.all('/_deploy', off);
    app.all('/_deploy/*', off);
  },
  {
    name: 'deploy',
    dependencies: ['shell-build', 'control-plane', 'render', 'metrics', 'views'],
  },
);
