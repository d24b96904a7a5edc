/**
 * The metrics plugin: `app.metrics` for every part that counts something, each answer counted by
 * the kind of its route, and the scrape endpoint behind METRICS_TOKEN.
 */
import bearerAuth from '@fastify/bearer-auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SiteMetrics, type DeployAction, type DeployOutcome, type RouteKind } from './metrics';

/** The kind of a request, from its route (never its path) and, for pages and files, its answer. */
function routeKind(request: FastifyRequest, reply: FastifyReply): RouteKind {
  const route = request.routeOptions.url ?? '';
  if (route.startsWith('/_deploy')) return 'deploy';
  if (route.startsWith('/api')) return 'api';
  if (route.startsWith('/_')) return 'other';
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html')) return 'page';
  return route ? 'asset' : 'other';
}

/** The deploy API's calls that change the live manifest, by route. */
const DEPLOY_ROUTES: Record<string, DeployAction> = {
  '/_deploy/remotes/:name': 'deploy',
  '/_deploy/remotes/:name/rollback': 'rollback',
  '/_deploy/releases': 'release',
  '/_deploy/releases/:id/rollback': 'rollback',
};

function deployOutcome(status: number): DeployOutcome {
  if (status < 300) return 'ok';
  if (status === 401) return 'unauthorized';
  // 409: the live manifest moved on; 428: the call named no base version.
  if (status === 409 || status === 428) return 'conflict';
  return status < 500 ? 'refused' : 'failed';
}

/**
 * The site's metrics: `app.metrics` for every part that counts something, every answer counted
 * (the hook is global, so it sees every route, the deploy API's included), and `GET /_metrics`:
 * off (404) without a token, 401 without the right one (@fastify/bearer-auth, which compares in
 * constant time).
 */
export const metricsPlugin = fp<{ processMetrics?: boolean }>(
  async (app, options) => {
    const metrics = new SiteMetrics({
      live: () => app.live(),
      // The page cache is made later (it counts its look-ups here): until then it holds nothing.
      cacheSize: () => app.pages?.cacheSize() ?? { entries: 0, bytes: 0 },
      ...(options.processMetrics === undefined ? {} : { processMetrics: options.processMetrics }),
    });
    app.decorate('metrics', metrics);
    // A callback, not a promise: it runs for every answer, and has nothing to wait for.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.request(routeKind(request, reply), reply.statusCode);
      const route =
        request.method === 'GET' ? undefined : DEPLOY_ROUTES[request.routeOptions.url ?? ''];
      // A deploy call with `preview` checks the version and signs a link; nothing goes live. (A call
      // refused for its token is never read, so it counts as the route's action.)
      const preview = (request.body as { preview?: unknown } | undefined)?.preview === true;
      const action = route === 'deploy' && preview ? 'preview' : route;
      if (action) metrics.deploy(action, deployOutcome(reply.statusCode));
      done();
    });

    const token = app.config.METRICS_TOKEN;
    await app.register(async (scrape) => {
      if (!token) {
        scrape.get('/_metrics', (_request, reply) =>
          reply
            .code(404)
            .header('cache-control', 'no-store')
            .type('text/plain; charset=utf-8')
            .send('The metrics are off: they need METRICS_TOKEN.\n'),
        );
        return;
      }
      await scrape.register(bearerAuth, {
        keys: [token],
        errorResponse: () => ({
          error: 'The metrics need a valid token (Authorization: Bearer <METRICS_TOKEN>).',
        }),
        verifyErrorLogLevel: 'warn',
      });
      scrape.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        if (reply.statusCode === 401) reply.header('www-authenticate', 'Bearer');
        return payload;
      });
      scrape.get('/_metrics', async (_request, reply) =>
        reply.type(metrics.contentType).send(await metrics.metrics()),
      );
    });
  },
  { name: 'metrics', dependencies: ['control-plane'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    metrics: SiteMetrics;
  }
}
