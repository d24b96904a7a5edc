/**
 * Sending a body the site server made itself (a composed page, the manifest, the sitemap): the
 * encoding negotiated from Accept-Encoding with its q-values (`negotiator`), a conditional request
 * answered by its ETag (`fresh`, which reads weak tags and lists as the HTTP specification says).
 * What a page allows around it is added to every HTML answer by pages/policy-plugin.ts.
 */
import { negotiateEncoding } from '@site/serving';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import type { SentPage } from './cache';

export interface SendOptions {
  type: string;
  cacheControl: string;
  headers?: Record<string, string>;
}

export function sendComposed(
  request: FastifyRequest,
  reply: FastifyReply,
  body: SentPage,
  { type, cacheControl, headers }: SendOptions,
): FastifyReply {
  reply.headers({
    'content-type': type,
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    vary: 'Accept-Encoding',
    etag: body.etag,
    ...body.headers,
    ...headers,
  });
  if (body.status === 200 && fresh(request.headers, { etag: body.etag })) {
    return reply.code(304).send();
  }
  const encoding = body.length > 512 ? negotiateEncoding(request) : null;
  const payload = encoding ? body.encode(encoding) : body.body;
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(body.status).send(payload);
}
