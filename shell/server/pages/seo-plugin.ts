/**
 * What the site says of itself: `/remotes.json` (the manifest the request's view sees: the client
 * navigates with the same one its page was composed from), a group's whole route table at
 * `/_routes/<group>` (pages carry each group's leading pages only: the client fetches the rest when
 * the visitor goes further into a group), `/sitemap.xml` from the live manifest, and
 * `robots.txt`. Each body is made once per manifest version and sent many times.
 */
import { ROUTE_TABLE_PATH, type GroupRoutes } from '@site/contracts';
import { REVALIDATE } from '@site/serving';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { sendComposed } from './send-body';
import { ComposedPage } from './cache';
import { robotsTxt, sitemapXml } from './seo-files';

/** A previewing browser's answers: for it alone, and never indexed. */
export const PREVIEW_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' };

export async function seoRoutes(app: FastifyInstance): Promise<void> {
  const { siteUrl } = app.shellBuild;
  // By count: a body per group (route tables) and a few for the site, each at most some hundred KB.
  const made = new LRUCache<string, ComposedPage>({ max: 256 });
  function once(key: string, make: () => string): ComposedPage {
    let body = made.get(key);
    if (!body) {
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
  app.get<{ Params: { group: string } }>(`${ROUTE_TABLE_PATH}/:group`, async (request, reply) => {
    const view = await request.siteView();
    const json = 'application/json; charset=utf-8';
    const remote = view.live.manifest.remotes.find((r) => r.name === request.params.group);
    if (!remote) {
      return reply
        .code(404)
        .header('cache-control', REVALIDATE)
        .type(json)
        .send({ error: 'unknown_group', message: 'the site has no page group of that name' });
    }
    const make = () =>
      JSON.stringify({
        remote: remote.name,
        version: remote.version,
        routes: remote.routes,
      } satisfies GroupRoutes);
    if (view.preview) {
      return sendComposed(request, reply, new ComposedPage(200, make()), {
        type: json,
        cacheControl: 'private, no-store',
        headers: PREVIEW_HEADERS,
      });
    }
    const body = once(`routes:${view.live.version}:${remote.name}`, make);
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
