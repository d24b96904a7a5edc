/**
 * Every GET and HEAD that is not the manifest, the sitemap, the deploy API or `/api`: a page of
 * the site, else one of the shell's files, else the 404 page. Only the path of the request target
 * is read; a target that is not a path is a 400. Files come from the shell's public folder through
 * `@fastify/static` (which decodes the path before any check, refuses to leave the folder, ignores
 * dotfiles, negotiates the precompressed copies and answers conditional requests); the shell's Node
 * build is not in that folder, so no spelling of a path reaches it.
 */
import fastifyStatic from '@fastify/static';
import encodeUrl from 'encodeurl';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REVALIDATE, filePolicy, settleAcceptEncoding } from '@site/serving';
import type { SentPage } from './cache';
import { sendComposed } from './send-body';

/**
 * The site's pages as one request sees them (a browser previewing a version sees that version's
 * pages: the request is passed for its cookie).
 */
export interface PageSource {
  /** Whether a path is one of the site's pages now. */
  isPage(urlPath: string, request: FastifyRequest): Promise<boolean>;
  /** The page at a path, or undefined when the path is not one of the site's pages. */
  page(urlPath: string, request: FastifyRequest): Promise<SentPage | undefined>;
  notFound(request: FastifyRequest): Promise<SentPage>;
}

export class BadTargetError extends Error {
  override name = 'BadTargetError';
  readonly statusCode = 400;
}

/** The path of a request target (origin form); anything else is a 400. */
export function targetPath(url: string): { path: string; query: string } {
  const end = url.search(/[?#]/);
  const pathPart = end === -1 ? url : url.slice(0, end);
  if (!pathPart.startsWith('/')) {
    throw new BadTargetError('The request target must be a path starting with "/".');
  }
  return { path: pathPart, query: end === -1 ? '' : url.slice(end).replace(/#.*$/, '') };
}

const PAGE_HEADERS = { type: 'text/html; charset=utf-8', cacheControl: REVALIDATE };

export async function pageRoutes(
  app: FastifyInstance,
  { publicDir, pages }: { publicDir: string; pages: PageSource },
): Promise<void> {
  await app.register(fastifyStatic, {
    root: publicDir,
    serve: false,
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    preCompressed: true,
    cacheControl: false,
    // The template pages are composed from, and its precompressed copies: never a page of its own.
    allowedPath: (pathname) => !/^\/index\.html(\.br|\.gz)?$/.test(pathname),
    setHeaders(res, file) {
      res.setHeader('cache-control', filePolicy(file));
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader('x-content-type-options', 'nosniff');
    },
  });

  async function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
    return sendComposed(request, reply, await pages.notFound(request), PAGE_HEADERS);
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const { path: urlPath, query } = targetPath(request.url);
    const page = await pages.page(urlPath, request);
    if (page) return sendComposed(request, reply, page, PAGE_HEADERS);
    if (urlPath.length > 1 && urlPath.endsWith('/')) {
      // `/about/` is `/about`. Only ever to one of the site's own pages, so no spelling of a path
      // makes a Location that leaves the site (`//host`, `/\host`).
      const target = urlPath.replace(/\/+$/, '') || '/';
      if (await pages.isPage(target, request)) {
        return reply
          .code(301)
          .header('location', encodeUrl(target + query))
          .send();
      }
      return sendNotFound(request, reply);
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      throw new BadTargetError('The request path is not valid percent-encoding.');
    }
    // A file name never holds a NUL or a backslash; such a path is no file (and some file systems
    // would read a backslash as a separator).
    if (/[\0\\]/.test(decoded)) return sendNotFound(request, reply);
    settleAcceptEncoding(request);
    return reply.sendFile(decoded);
  }

  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: handle });
  app.route({ method: ['GET', 'HEAD'], url: '/', handler: handle });

  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply
        .code(405)
        .header('allow', 'GET, HEAD')
        .type('text/plain; charset=utf-8')
        .send('Only GET and HEAD are answered here.\n');
    }
    targetPath(request.url);
    return sendNotFound(request, reply);
  });
}
