/**
 * Sending a body the site server made itself (a composed page, the manifest, the sitemap): the
 * encoding negotiated from Accept-Encoding with its q-values (`negotiator`), a conditional request
 * answered by its ETag (`fresh`, which reads weak tags and lists as the HTTP specification says).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import Negotiator from 'negotiator';
import type { ComposedPage, Encoding } from '../page-cache';

/** Revalidate on every use: for whatever can change in place (pages, the manifest). */
export const REVALIDATE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const ENCODINGS = ['br', 'gzip', 'identity'];

/** `negotiator` 1.x takes the server's order of preference for ties; its types predate that. */
type EncodingNegotiator = {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
};

/** The encoding to send, or null for the body as it is. */
export function negotiateEncoding(request: FastifyRequest): Encoding | null {
  const negotiator = new Negotiator(request.raw) as unknown as EncodingNegotiator;
  const chosen = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * Narrows a request's Accept-Encoding to the one encoding `negotiator` chose, for the static file
 * plugin: it reads `*` as gzip before weighing q-values, so `gzip;q=0, *` would get gzip.
 */
export function settleAcceptEncoding(request: FastifyRequest): void {
  if (request.headers['accept-encoding'] === undefined) return;
  request.raw.headers['accept-encoding'] = negotiateEncoding(request) ?? 'identity';
}

export interface SendOptions {
  type: string;
  cacheControl: string;
  headers?: Record<string, string>;
}

export function sendComposed(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ComposedPage,
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
  const encoding = body.body.length > 512 ? negotiateEncoding(request) : null;
  const payload = encoding ? body.encode(encoding) : body.body;
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(body.status).send(payload);
}
