/**
 * One log line per request, in the format the mail-service writes too (@site/serving's request
 * log): method, path, status, time. What a page loads (its files, beacons and policy reports) and
 * what probes poll are logged at debug level, so a log at info shows the pages, API calls and
 * deploys people and clients asked for.
 */
import fp from 'fastify-plugin';
import { logRequest, pathOf } from '@site/serving/request-log';
import { PREVIEW_PATH } from '../previews/preview';

const POLLED = new Set(['/_health', '/_ready', '/_metrics', '/_beacon', '/_csp']);
const FILES = /^\/(assets|share)\/|\.(js|css|svg|png|ico|txt|xml|json|woff2?)$/;

/** A preview link's path carries its signed token: the log names the link, never the token. */
const shown = (path: string) =>
  path.startsWith(`${PREVIEW_PATH}/`) && path !== `${PREVIEW_PATH}/end`
    ? `${PREVIEW_PATH}/(link)`
    : path;

/**
 * Logs a request the site answered. Also called for a target the router refuses (http/fastify-options.ts),
 * which Fastify answers without its hooks.
 */
export function logSiteRequest(
  log: Parameters<typeof logRequest>[0],
  request: { method: string; url: string },
  status: number,
  ms: number,
): void {
  const path = pathOf(request.url);
  logRequest(
    log,
    { method: request.method, path: shown(path), status, ms },
    POLLED.has(path) || FILES.test(path),
  );
}

export const requestLog = fp(async (app) => {
  // A callback, not a promise: it runs for every answer, and has nothing to wait for.
  app.addHook('onResponse', (request, reply, done) => {
    logSiteRequest(request.log, request, reply.statusCode, reply.elapsedTime);
    done();
  });
});
