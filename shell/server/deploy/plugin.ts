/**
 * Releases: the deploy API (`/_deploy/*`, deploy/api.ts) through which teams change the live
 * manifest, the checks every change passes (deploy/deployer.ts), and the judge that rolls back a
 * failing canary, steps up a healthy one and promotes it (canary/judge.ts). Without a deploy token the API
 * answers 404 and says why; the judge runs either way (a canary can only come from a deploy, but a
 * manifest is read as it is).
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import { CanaryJudge } from '../canary/judge';
import type { Judgment } from '@site/contracts/canary-judgment';
import type { DeploymentManifest } from '@site/contracts';
import { deployApi } from './api';
import { Deployer } from './deployer';
import { reservedPaths } from './reserved';
import type { Grants, RouteTableLimits } from './table-rules';

export interface DeploySettings {
  /** The operator's token; the API is off without it. */
  token?: string | undefined;
  /** Origins entries may point at. */
  allowedOrigins: readonly string[];
  fetchTimeoutMs: number;
  /** How long one change's checks may take before it is refused. */
  checkTimeoutMs: number;
  /** Each group's prefixes as the site table grants them, read for each change. */
  grants(): Promise<Grants>;
  routeLimits: RouteTableLimits;
  /** How canaries are judged unless their plan says otherwise, and how often (ms). */
  canary: Judgment & { intervalMs: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    deployer: Deployer;
    canaryJudge: CanaryJudge;
  }
}

export default fp<DeploySettings>(
  async (app, settings) => {
    const log = app.log.child({ part: 'deploy' });
    const { shell, publicDir } = app.shellBuild;
    const store = app.controlPlane;
    /** A page's part rendered by its group's processes for `manifest`; a string: why it could not be. */
    async function renderPart(manifest: DeploymentManifest, pagePath: string) {
      const owner = manifest.remotes.find((r) => r.routes.some((route) => route.path === pagePath));
      if (!owner) return `no group owns ${pagePath}`;
      try {
        return await app
          .renderPools()
          .group(owner)
          .render({ part: 'page', manifest: { ...manifest, remotes: [owner] }, path: pagePath });
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    }
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
      grants: settings.grants,
      routeLimits: settings.routeLimits,
      fetchTimeoutMs: Math.max(settings.fetchTimeoutMs, 5000),
      checkTimeoutMs: settings.checkTimeoutMs,
      // A version's pages are rendered by that version's own processes, as its visitors' will be.
      async renderCheck(manifest, pagePath) {
        const reply = await renderPart(manifest, pagePath);
        return typeof reply === 'string' ? reply : reply.failure;
      },
      async renderPage(manifest, pagePath) {
        const reply = await renderPart(manifest, pagePath);
        return typeof reply === 'string' || reply.failure !== null
          ? null
          : JSON.stringify([reply.status, reply.meta, reply.html]);
      },
    });
    app.decorate('deployer', deployer);

    // Every replica flushes its counts; the one holding the lease judges for the whole site.
    const judge = new CanaryJudge({
      current: () => store.get(),
      counter: app.canary.counter,
      store: app.canary.store,
      holder: `${process.pid}-${randomBytes(6).toString('hex')}`,
      defaults: settings.canary,
      intervalMs: settings.canary.intervalMs,
      async rollBack(canaries, reason) {
        if (await deployer.rollBackCanaries(canaries, reason)) app.metrics.deploy('rollback', 'ok');
      },
      async step(canaries, percent, reason) {
        if (await deployer.stepCanaries(canaries, percent, reason)) {
          app.metrics.deploy('deploy', 'ok');
        }
      },
      async promote(canaries, reason) {
        if (await deployer.promoteCanaries(canaries, reason)) app.metrics.deploy('deploy', 'ok');
      },
      log,
    });
    app.decorate('canaryJudge', judge);
    app.metrics.canaries(() => judge.status());
    app.addHook('onReady', async () => judge.start());
    app.addHook('preClose', async () => judge.stop());

    if (settings.token) {
      await app.register(deployApi, {
        prefix: '/_deploy',
        token: settings.token,
        tokens: store.tokens,
        deployer,
        preview: app.previews,
        current: () => store.get(),
        canaries: () => judge.status(),
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
    dependencies: ['shell-build', 'control-plane', 'render', 'metrics', 'views', 'canary'],
  },
);
