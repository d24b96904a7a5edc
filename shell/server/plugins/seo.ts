/**
 * What the site says of itself: `/remotes.json` (the manifest the request's view sees: the client
 * navigates with the same one its page was composed from), `/sitemap.xml` from the live manifest,
 * and `robots.txt`. Each body is made once per manifest version and sent many times.
 */
import { REVALIDATE } from '@site/serving';
import type { FastifyInstance } from 'fastify';
import { sendComposed } from '../http/send-body';
import { ComposedPage } from '../page-cache';
import { robotsTxt, sitemapXml } from '../seo-files';

/** A previewing browser's answers: for it alone, and never indexed. */
export const PREVIEW_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' };

export async function seoRoutes(app: FastifyInstance): Promise<void> {
  const { siteUrl } = app.shellBuild;
  const made = new Map<string, ComposedPage>();
  function once(key: string, make: () => string): ComposedPage {
    let body = made.get(key);
    if (!body) {
      if (made.size > 16) made.clear();
      body = new ComposedPage(200, make());
      made.set(key, body);
    }
    return body;
  }

  app.get('/remotes.json', async (request, reply) => {
    const view = await request.siteView();
    const json = 'application/json; charset=utf-8';
    if (view.preview) {
      return sendComposed(request, reply, new ComposedPage(200, view.live.text), {
        type: json,
        cacheControl: 'private, no-store',
        headers: PREVIEW_HEADERS,
      });
    }
    const body = once(`manifest:${view.live.version}`, () => view.live.text);
    return sendComposed(request, reply, body, { type: json, cacheControl: REVALIDATE });
  });
  app.get('/sitemap.xml', async (request, reply) => {
    const live = await app.live();
    const body = once(`sitemap:${live.version}`, () => sitemapXml(siteUrl, app.pages.paths(live)));
    return sendComposed(request, reply, body, {
      type: 'application/xml; charset=utf-8',
      cacheControl: 'public, max-age=300',
    });
  });
  app.get('/robots.txt', async (request, reply) =>
    sendComposed(
      request,
      reply,
      once('robots', () => robotsTxt(siteUrl)),
      { type: 'text/plain; charset=utf-8', cacheControl: 'public, max-age=300' },
    ),
  );
}
