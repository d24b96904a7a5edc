/**
 * `/api/*` forwarded to the mail-service, so the contact form talks to the site's own origin.
 * The request's body is passed on as it arrives (the mail-service parses and limits it), and the
 * mail-service is told who the client is and how it reached the site: `X-Forwarded-For` and
 * `X-Forwarded-Proto` as this server established them with its own `TRUST_PROXY` (a TLS-terminating
 * CDN's `https` passes through; a client's own claims do not).
 *
 * A message (`POST /api/sendmail`, and every other call that changes something but a held
 * message's signed release) is forwarded only with the contact page's own token, which the site
 * gives to that page's document alone (contact/no-script-form.ts): code on another page, which can read
 * the CSRF cookie like any script of the site's origin, still cannot send as the visitor.
 */
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { CONTACT_TOKEN_HEADER } from '../../src/pages/contact/contact-token';
import { BadTargetError, targetPath } from '../pages/answer';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The one unsafe call that is no message: a held message's release form, opened from the
 * operator's digest e-mail, whose signed link is its authority. (The mail-service matches paths
 * without regard to case.)
 */
const HELD_RELEASE = /^\/api\/held\//i;
const NOT_FROM_CONTACT_PAGE = {
  error: 'contact_token',
  message:
    'A message is taken only from the contact page itself (X-Contact-Token): load the contact page and send it from there.',
};

const UNAVAILABLE = {
  error: 'service_unavailable',
  message: 'The message service is not reachable right now.',
};

/** What the proxy needs to know of a request: who sent it and how it reached the site. */
interface Origin {
  ips?: string[];
  ip: string;
  protocol: string;
  host: string;
}

export function forwardedHeaders(
  request: Origin,
  headers: IncomingHttpHeaders,
): IncomingHttpHeaders {
  // `request.ips` is the chain up to the first address this server does not trust (nearest
  // first); without a trusted proxy it is the client's address alone.
  const chain = request.ips ? [...request.ips].reverse() : [request.ip];
  const {
    'x-forwarded-for': _for,
    'x-forwarded-proto': _proto,
    'x-forwarded-host': _host,
    ...rest
  } = headers;
  return {
    ...rest,
    'x-forwarded-for': chain.join(', '),
    'x-forwarded-proto': request.protocol,
    'x-forwarded-host': request.host,
  };
}

/** How long a call to the mail-service may take before the visitor is told it failed. */
const TIMEOUT_MS = 15000;

export async function apiProxy(app: FastifyInstance): Promise<void> {
  const target = app.config.MAIL_SERVICE_URL;
  const timeoutMs = TIMEOUT_MS;
  await app.register(replyFrom, {
    base: target,
    // A new connection per call: a kept-alive one the mail-service has just closed would turn a
    // healthy call into a reset (and a 503) now and then; /api's few calls a minute need no reuse.
    http: { agentOptions: { keepAlive: false }, requestOptions: { timeout: timeoutMs } },
    disableRequestLogging: true,
  });
  // Bodies go through untouched, whatever their type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const forward = (request: FastifyRequest, reply: FastifyReply) => {
    // Only a path (and a query that decodes) is forwarded: anything else is the client's error.
    const { path: target } = targetPath(request.url);
    try {
      decodeURI(request.url);
    } catch {
      throw new BadTargetError('The request target is not valid percent-encoding.');
    }
    if (!target.startsWith('/api')) throw new BadTargetError('Not an /api path.');
    const header = CONTACT_TOKEN_HEADER.toLowerCase();
    if (!SAFE_METHODS.has(request.method) && !HELD_RELEASE.test(target)) {
      const token = request.headers[header];
      if (!app.canary.signer.contactTokenValid(typeof token === 'string' ? token : undefined)) {
        return reply.code(403).header('cache-control', 'no-store').send(NOT_FROM_CONTACT_PAGE);
      }
    }
    return reply.from(request.url, {
      // The contact page's token stops here: the mail-service has no use for it.
      rewriteRequestHeaders: (req, headers) => {
        const { [header]: _token, ...rest } = forwardedHeaders(req, headers);
        return rest;
      },
      onError(errorReply) {
        errorReply
          .code(503)
          .header('retry-after', '30')
          .header('cache-control', 'no-store')
          .send(UNAVAILABLE);
      },
    });
  };
  app.all('/api', forward);
  app.all('/api/*', forward);
}
