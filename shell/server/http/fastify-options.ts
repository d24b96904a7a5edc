/**
 * The site's answers to two of Fastify's own options: which proxies' `X-Forwarded-*` headers count,
 * and how a request target the router cannot decode is refused.
 */
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { logSiteRequest } from './request-log-plugin';
import type { TrustProxy } from '@site/contracts/trust-proxy';

const BAD_TARGET = 'The request target is not valid percent-encoding';

/** A hop count trusts the nearest `n` proxies (Express's meaning, which the settings share). */
export const trustProxy = (value: TrustProxy) =>
  typeof value === 'number' ? (_address: string, hop: number) => hop < value : (value ?? false);

/**
 * A target the router cannot decode (`/%zz`) never reaches a route or the error handler: refused
 * here as every other bad target is, not to be stored, instead of Fastify's JSON that echoes the
 * target back. The deploy API's clients read JSON refusals.
 */
export const refuseBadTarget: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  _error,
  request,
  generic,
) => {
  const reply = (generic as unknown as FastifyReply).code(400).header('cache-control', 'no-store');
  logSiteRequest(request.log, request, 400, reply.elapsedTime);
  return request.url.startsWith('/_deploy')
    ? reply.send({ error: 'bad_target', message: BAD_TARGET })
    : reply.type('text/plain; charset=utf-8').send(`${BAD_TARGET}.\n`);
};
