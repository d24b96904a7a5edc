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
import type { Grants } from './table-rules';

/** What the deploy API takes besides the settings: where the grants come from, and, in tests, a judge's pace. */
export interface DeployHooks {
  /** Each group's prefixes as the site table grants them, read for each change. */
  grants(): Promise<Grants>;
  /** How often canaries are judged (ms), instead of CANARY_JUDGE_SECONDS. */
  canaryIntervalMs?: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    deployer: Deployer;
    canaryJudge: CanaryJudge;
  }
}

export default fp<DeployHooks>(
  async (app, hooks) => {
    const config = app.config;
    const canaryDefaults: Judgment = {
      maxErrorRate: config.CANARY_MAX_ERROR_RATE,
      minViews: config.CANARY_MIN_VIEWS,
      windowSeconds: config.CANARY_WINDOW_SECONDS,
    };
    const intervalMs = hooks.canaryIntervalMs ?? config.CANARY_JUDGE_SECONDS * 1000;
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
      allowedOrigins: config.DEPLOY_ALLOWED_ORIGINS,
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
      grants: hooks.grants,
      routeLimits: {
        titleChars: config.ROUTE_TITLE_MAX_CHARS,
        navLabelChars: config.ROUTE_NAV_LABEL_MAX_CHARS,
        groupChars: config.ROUTE_GROUP_MAX_CHARS,
        routes: config.ROUTE_TABLE_MAX_ROUTES,
        tableBytes: config.ROUTE_TABLE_MAX_BYTES,
      },
      fetchTimeoutMs: Math.max(config.FETCH_TIMEOUT_MS, 5000),
      checkTimeoutMs: config.DEPLOY_CHECK_TIMEOUT_S * 1000,
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
      defaults: canaryDefaults,
      intervalMs,
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

    if (config.DEPLOY_TOKEN) {
      await app.register(deployApi, {
        prefix: '/_deploy',
        token: config.DEPLOY_TOKEN,
        tokens: store.tokens,
        deployer,
        preview: app.previews,
        current: () => store.read(),
        served: () => store.get(),
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
