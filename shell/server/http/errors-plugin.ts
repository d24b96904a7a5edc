/**
 * Anything thrown while answering: a 4xx stays what it is (with its reason, in plain text);
 * anything else is logged with the request's id and answered with the notice a page gets when it
 * cannot be rendered (drawn without any render process), never a bare 500.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { sendComposed } from '../pages/send-body';
import { ComposedPage } from '../pages/cache';

export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`${error.message}\n`);
    }
    request.log.error(`site: ${request.method} ${request.url}: ${error.stack ?? error.message}`);
    if (reply.sent || reply.raw.headersSent) return;
    try {
      const notice = await app.pages.lastResort(
        await app.live(),
        'the site could not answer this request',
      );
      return sendComposed(request, reply, new ComposedPage(503, notice, { 'Retry-After': '30' }), {
        type: 'text/html; charset=utf-8',
        cacheControl: 'no-store',
      });
    } catch {
      return reply
        .code(503)
        .header('retry-after', '30')
        .type('text/plain; charset=utf-8')
        .send('The site could not answer this request. Please try again in a moment.\n');
    }
  });
}
