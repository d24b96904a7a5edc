/**
 * Sending a body the site server made itself (a composed page, the manifest, the sitemap): the
 * encoding negotiated from Accept-Encoding with its q-values (`negotiator`), a conditional request
 * answered by its ETag (`fresh`, which reads weak tags and lists as the HTTP specification says);
 * a page with what it allows around it.
 */
import { negotiateEncoding } from '@site/serving';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import type { SentPage } from '../page-cache';

/**
 * What a page allows around it: to be framed by the site alone (clickjacking), no other base URL,
 * no plugins, forms sent to the site only, and only its origin in the Referer of the links it
 * follows elsewhere. Scripts are not limited here: a page's start-up script is inline and differs
 * by page.
 */
const PAGE_SECURITY = {
  'content-security-policy':
    "frame-ancestors 'self'; base-uri 'self'; object-src 'none'; form-action 'self'",
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

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
    ...(type.startsWith('text/html') ? PAGE_SECURITY : {}),
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
