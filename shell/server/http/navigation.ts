/**
 * Fetch Metadata: whether a request is a browser loading a page into a window or tab of its own,
 * not a script's fetch, a frame, a prefetch or a prerender. Only such a document is given what
 * belongs to one document (a view token, the contact page's token). Browsers send these headers to
 * secure origins (HTTPS, and localhost); a request without them is no document's navigation.
 */
import type { FastifyRequest } from 'fastify';

export function isDocumentNavigation(request: FastifyRequest): boolean {
  const { headers } = request;
  const purpose = String(headers['sec-purpose'] ?? headers.purpose ?? '');
  return (
    headers['sec-fetch-mode'] === 'navigate' &&
    headers['sec-fetch-dest'] === 'document' &&
    !/prefetch|prerender/i.test(purpose)
  );
}
