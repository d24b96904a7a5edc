/**
 * A remote's built files on its own origin, as its static host or CDN path would serve them. Files
 * are public, so any origin may fetch them (the shell fetches mf-manifest.json and chunks
 * cross-origin). `@fastify/static` does the HTTP: the path decoded before any check and kept inside
 * the folder, dotfiles ignored, the build's brotli and gzip copies sent by Accept-Encoding,
 * conditional requests answered. A request that does not arrive in time is closed, and one client
 * address holds only its share of connections (`connections.ts`). The run scripts start one process
 * for every group's host (scripts/serve-remote.ts); the static export starts them inside the site
 * server's process.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { filePolicy } from './cache-policy';
import {
  CONNECTION_LIMITS,
  LIMITED_SERVER_OPTIONS,
  limitConnections,
  type ConnectionLimits,
} from './connections';
import { settleAcceptEncoding } from './encoding';
import { listenOn } from './listen';

const CORS = { 'access-control-allow-origin': '*', 'timing-allow-origin': '*' };

export interface RemoteHost {
  app: FastifyInstance;
  /** On `host`, else every interface. */
  listen(port: number, host?: string): Promise<void>;
  close(): Promise<void>;
}

export interface RemoteHostOptions {
  /** Time limits and connection counts; the stated defaults when not given. */
  limits?: ConnectionLimits;
}

export async function createRemoteServer(
  root: string,
  { limits = CONNECTION_LIMITS }: RemoteHostOptions = {},
): Promise<RemoteHost> {
  const app = Fastify({
    logger: false,
    http: LIMITED_SERVER_OPTIONS,
    routerOptions: { maxParamLength: 16 * 1024 },
    forceCloseConnections: true,
  });
  limitConnections(app.server, limits);
  app.addHook('onRequest', async (request) => settleAcceptEncoding(request));
  await app.register(fastifyStatic, {
    root: path.resolve(root),
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, file) {
      res.setHeader('cache-control', filePolicy(file));
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader('x-content-type-options', 'nosniff');
      for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
    },
  });
  app.options('/*', (_request, reply) =>
    reply
      .code(204)
      .headers({
        ...CORS,
        'access-control-allow-methods': 'GET, HEAD',
        'access-control-max-age': '86400',
      })
      .send(),
  );
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(405).header('allow', 'GET, HEAD, OPTIONS').send();
    }
    return reply.code(404).headers(CORS).type('text/plain; charset=utf-8').send('Not found\n');
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 503;
    return reply
      .code(status)
      .headers(CORS)
      .type('text/plain; charset=utf-8')
      .send(status < 500 ? `${error.message}\n` : 'The file could not be read.\n');
  });
  return {
    app,
    async listen(port, host) {
      await listenOn(app, port, host);
    },
    close: () => app.close(),
  };
}
